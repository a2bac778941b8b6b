import { parse as parseYaml } from "yaml";
import { ApiError } from "@/lib/errors";
import { patternFrontMatterSchema, type PatternFrontMatter } from "@/lib/schemas/patterns";

/** `title` is the guide's first level-one heading, the name an assistant shows for its prompt. */
export type ParsedPattern = { frontMatter: PatternFrontMatter; body: string; title: string | null };

const TITLE_MAX_CHARS = 120;

// Front matter is the first thing in the file, between two `---` lines (a BOM and CRLF line ends allowed).
const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function invalidPattern(message: string, fields?: { field: string; message: string }[]): ApiError {
  return new ApiError("invalid_pattern", message, fields ? { fields } : undefined);
}

/** Splits a pattern's Markdown into its checked front matter and its guide; throws invalid_pattern. */
export function parsePatternMarkdown(markdown: string): ParsedPattern {
  const match = FRONT_MATTER.exec(markdown);
  if (!match) {
    throw invalidPattern("A pattern starts with YAML front matter between two --- lines (name, description, triggers, optional template).");
  }
  let data: unknown;
  try {
    // The core schema reads plain strings, lists and numbers; aliases are capped by the library (no expansion bombs).
    data = parseYaml(match[1]!, { schema: "core", uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    throw invalidPattern(`The front matter is not valid YAML: ${(error as Error).message.split("\n")[0]!.slice(0, 200)}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw invalidPattern("The front matter must be a YAML mapping of name, description, triggers and optional template.");
  }
  const result = patternFrontMatterSchema.safeParse(data);
  if (!result.success) {
    const fields = result.error.issues.map((issue) => ({ field: ["front_matter", ...issue.path.map(String)].join("."), message: issue.message }));
    throw invalidPattern(`Invalid front matter: ${fields.map((field) => `${field.field}: ${field.message}`).join("; ")}`, fields);
  }
  const body = markdown.slice(match[0].length);
  if (body.trim() === "") throw invalidPattern("The pattern has front matter but no guide after it.");
  const heading = /^# +(.+?)[ #]*$/m.exec(body)?.[1]?.trim();
  return { frontMatter: result.data, body, title: heading ? [...heading].slice(0, TITLE_MAX_CHARS).join("") : null };
}
