// Dependency-free on purpose: the discovery documents and next.config.ts name the catalog from here.
export const PATTERN_CATALOG_PATH = "/.well-known/patterns";
export const PATTERN_INDEX_PATH = `${PATTERN_CATALOG_PATH}/index.json`;

/** The catalog as MCP resources: the account's view of it, so not the public URLs. */
export const PATTERN_RESOURCE_ROOT = "htmldrop://patterns/";
export const PATTERN_INDEX_URI = `${PATTERN_RESOURCE_ROOT}index.json`;
