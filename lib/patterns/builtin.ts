import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { templateFileName, type PatternFrontMatter } from "@/lib/schemas/patterns";
import { parsePatternMarkdown } from "./markdown";

export type BuiltinPattern = { frontMatter: PatternFrontMatter; title: string | null; markdown: string; template: string | null };

/** The service's own patterns ship as files in patterns/ (traced into Vercel's functions by next.config.ts). */
export const BUILTIN_PATTERNS_DIR = join(process.cwd(), "patterns");

const BUILTIN_KEY = Symbol.for("htmldrop.builtin-patterns");
type BuiltinHolder = { [BUILTIN_KEY]?: ReadonlyMap<string, BuiltinPattern> };

function loadBuiltinPatterns(dir: string): ReadonlyMap<string, BuiltinPattern> {
  const patterns = new Map<string, BuiltinPattern>();
  for (const file of readdirSync(dir).filter((entry) => entry.endsWith(".md")).sort()) {
    const markdown = readFileSync(join(dir, file), "utf8");
    const { frontMatter, title } = parsePatternMarkdown(markdown);
    // A release whose catalog disagrees with itself must fail loudly, not serve a broken pattern.
    if (`${frontMatter.name}.md` !== file) throw new Error(`htmldrop: built-in pattern ${file} is named ${frontMatter.name}`);
    const template = frontMatter.template === undefined ? null : readFileSync(join(dir, templateFileName(frontMatter.name)), "utf8");
    patterns.set(frontMatter.name, { frontMatter, title, markdown, template });
  }
  return patterns;
}

/** The built-in patterns by name, read and checked once per process. */
export function builtinPatterns(): ReadonlyMap<string, BuiltinPattern> {
  const holder = globalThis as BuiltinHolder;
  return (holder[BUILTIN_KEY] ??= loadBuiltinPatterns(BUILTIN_PATTERNS_DIR));
}
