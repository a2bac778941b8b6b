// Dependency-free on purpose: the discovery documents and next.config.ts name the catalog from here.
export const PATTERN_CATALOG_PATH = "/.well-known/patterns";
export const PATTERN_INDEX_PATH = `${PATTERN_CATALOG_PATH}/index.json`;

/** The catalog as MCP resources: the account's view of it, so not the public URLs. */
export const PATTERN_RESOURCE_ROOT = "htmldrop://patterns/";
export const PATTERN_INDEX_URI = `${PATTERN_RESOURCE_ROOT}index.json`;

export type PatternFile = { name: string; file: "guide" | "template" };

/** A catalog file name, `<name>.md` (the guide) or `<name>.template.html`, as its pattern's name and kind; null otherwise. */
export function parsePatternFileName(file: string): PatternFile | null {
  const match = /^([a-z0-9-]{1,64})\.(md|template\.html)$/.exec(file);
  return match ? { name: match[1]!, file: match[2] === "md" ? "guide" : "template" } : null;
}
