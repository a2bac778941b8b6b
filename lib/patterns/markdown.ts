import { CST, Lexer, parse as parseYaml } from "yaml";
import { ApiError } from "@/lib/errors";
import { utf8Bytes } from "@/lib/schemas/common";
import { PATTERN_LIMITS, patternFrontMatterSchema, type PatternFrontMatter } from "@/lib/schemas/patterns";

/** `title` is the guide's first level-one heading, the name an assistant shows for its prompt. */
export type ParsedPattern = { frontMatter: PatternFrontMatter; body: string; title: string | null };

const TITLE_MAX_CHARS = 120;

// Front matter is the first thing in the file, between two `---` lines (a BOM and CRLF line ends allowed).
const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function invalidPattern(message: string, fields?: { field: string; message: string }[]): ApiError {
  return new ApiError("invalid_pattern", message, fields ? { fields } : undefined);
}

/**
 * How deeply the front matter nests collections, from the lexer's tokens alone (linear, no recursion):
 * the parser's cost grows faster than its input with nesting, and about 1,000 levels overflow its
 * stack. Never less than the real depth: flow brackets are counted exactly, and a block line's depth
 * is the indentations still open above it plus the `-` and `?` indicators on it.
 */
export function frontMatterDepth(source: string, stopAbove = Infinity): number {
  let deepest = 0;
  let flow = 0;
  const indents: number[] = [];
  let lineStart = true;
  let lineIndent = 0;
  let indicators = 0;
  let skipScalarSource = false;
  let blockScalar = false;
  for (const token of new Lexer().lex(source)) {
    const type = CST.tokenType(token);
    if (skipScalarSource) {
      skipScalarSource = false;
      // A block scalar's text runs to the start of the next line, with no newline token of its own.
      if (blockScalar) [blockScalar, lineStart, lineIndent, indicators] = [false, true, 0, 0];
      continue;
    }
    if (type === "newline") {
      [lineStart, lineIndent, indicators] = [true, 0, 0];
      continue;
    }
    if (type === "space") {
      if (lineStart) lineIndent = token.length;
      continue;
    }
    if (type === "comment" || type === "doc-mode") continue;
    if (type === "scalar") {
      skipScalarSource = true;
      // A block scalar's text (from the line after its header) is one token, not a line of structure.
      if (blockScalar) continue;
    } else if (type === "block-scalar-header") blockScalar = true;
    else if (type === "flow-seq-start" || type === "flow-map-start") flow++;
    else if (type === "flow-seq-end" || type === "flow-map-end") flow = Math.max(0, flow - 1);
    else if (type === "seq-item-ind" || type === "explicit-key-ind") indicators++;
    if (lineStart && flow === 0) {
      while (indents.length > 0 && indents.at(-1)! >= lineIndent) indents.pop();
      indents.push(lineIndent);
    }
    lineStart = false;
    deepest = Math.max(deepest, indents.length + indicators + flow);
    // Past the limit the rest need not be read.
    if (deepest > stopAbove) break;
  }
  return deepest;
}

/** Splits a pattern's Markdown into its checked front matter and its guide; throws invalid_pattern. */
export function parsePatternMarkdown(markdown: string): ParsedPattern {
  const match = FRONT_MATTER.exec(markdown);
  if (!match) {
    throw invalidPattern("A pattern starts with YAML front matter between two --- lines (name, description, triggers, optional template).");
  }
  const frontMatter = match[1]!;
  const { frontMatterMaxBytes: maxBytes, frontMatterMaxDepth: maxDepth } = PATTERN_LIMITS;
  // Bounded before the YAML parser sees it: its time and stack grow with the input and its nesting.
  if (utf8Bytes(frontMatter) > maxBytes) {
    throw invalidPattern(`The front matter is larger than ${maxBytes} bytes: it holds only name, description, triggers and template; the guide goes after it.`, [
      { field: "front_matter", message: `at most ${maxBytes} bytes` },
    ]);
  }
  if (frontMatterDepth(frontMatter, maxDepth) > maxDepth) {
    throw invalidPattern(`The front matter nests lists or mappings more than ${maxDepth} levels deep: a pattern's keys need two.`, [
      { field: "front_matter", message: `nested at most ${maxDepth} levels deep` },
    ]);
  }
  let data: unknown;
  try {
    // The core schema reads plain strings, lists and numbers; aliases are capped by the library (no expansion bombs).
    data = parseYaml(frontMatter, { schema: "core", uniqueKeys: true, prettyErrors: false });
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
