import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { db, isUniqueViolation, transaction } from "@/lib/db";
import { ApiError, isApiError } from "@/lib/errors";
import { assertWriteAllowed } from "@/lib/ratelimit";
import { parseInput } from "@/lib/schemas/errors";
import {
  PATTERN_LIMITS,
  patternNameSchema,
  templateFileName,
  type Pattern,
  type PatternIndex,
  type PatternSummary,
  type SavePatternInput,
} from "@/lib/schemas/patterns";
import { newId } from "@/lib/security/random";
import { builtinPatterns, type BuiltinPattern } from "./builtin";
import { parsePatternMarkdown } from "./markdown";
import { parsePatternFileName, PATTERN_CATALOG_PATH } from "./paths";

// Patterns as one account sees them: its own first, then the built-in ones it has not replaced.
// `userId` null is a caller that may not read the account's patterns (no drops:read): built-in ones only.

type AccountPatternRow = { name: string; title: string | null; description: string; triggers: string; hasTemplate: boolean; updatedAt: Date };

function catalogUrl(file: string): string {
  return `${getConfig().publicUrl}${PATTERN_CATALOG_PATH}/${file}`;
}

function builtinSummary(pattern: BuiltinPattern): PatternSummary {
  const { name, description, triggers } = pattern.frontMatter;
  return {
    name,
    title: pattern.title,
    description,
    triggers,
    source: "builtin",
    has_template: pattern.template !== null,
    url: catalogUrl(`${name}.md`),
    template_url: pattern.template === null ? null : catalogUrl(templateFileName(name)),
    updated_at: null,
  };
}

function accountSummary(row: AccountPatternRow): PatternSummary {
  return {
    name: row.name,
    title: row.title,
    description: row.description,
    triggers: JSON.parse(row.triggers) as string[],
    source: "account",
    has_template: row.hasTemplate,
    url: null,
    template_url: null,
    updated_at: row.updatedAt.getTime(),
  };
}

function accountPattern(row: AccountPatternRow & { markdown: string; template: string | null }): Pattern {
  return { ...accountSummary(row), markdown: row.markdown, template: row.template };
}

const SUMMARY_FIELDS = { name: true, title: true, description: true, triggers: true, hasTemplate: true, updatedAt: true } as const;

/** Every pattern the account's agents should consider, by name. */
export async function listPatterns(userId: string | null): Promise<PatternSummary[]> {
  const own = userId === null ? [] : await db().pattern.findMany({ where: { userId }, select: SUMMARY_FIELDS });
  const byName = new Map<string, PatternSummary>();
  for (const pattern of builtinPatterns().values()) byName.set(pattern.frontMatter.name, builtinSummary(pattern));
  for (const row of own) byName.set(row.name, accountSummary(row));
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** One pattern with its Markdown and template: the account's own, else the built-in one. */
export async function getPattern(userId: string | null, name: string): Promise<Pattern> {
  const valid = parseInput(patternNameSchema, name, "name");
  const row = userId === null ? null : await db().pattern.findUnique({ where: { userId_name: { userId, name: valid } } });
  if (row) return accountPattern(row);
  const builtin = builtinPatterns().get(valid);
  if (builtin) return { ...builtinSummary(builtin), markdown: builtin.markdown, template: builtin.template };
  throw new ApiError("not_found", `No pattern named ${valid}: list the patterns to see their names.`);
}

/** getPattern, with a missing or malformed name as null: for callers that answer "no such pattern" their own way. */
export async function findPattern(userId: string | null, name: string): Promise<Pattern | null> {
  try {
    return await getPattern(userId, name);
  } catch (error) {
    if (isApiError(error) && (error.code === "not_found" || error.code === "invalid_arg")) return null;
    throw error;
  }
}

/**
 * Adds or replaces one of the account's patterns. The Markdown's front matter must name the pattern
 * as the path does, and a template it names must come with it. Counts as a write, refused or not:
 * checking the front matter is work, so invalid saves must not be free to repeat.
 */
export async function savePattern(userId: string, name: string, input: SavePatternInput): Promise<{ pattern: Pattern; created: boolean }> {
  await assertWriteAllowed(userId);
  const valid = parseInput(patternNameSchema, name, "name");
  const { frontMatter, title } = parsePatternMarkdown(input.markdown);
  if (frontMatter.name !== valid) {
    throw new ApiError("invalid_pattern", `The front matter names the pattern ${frontMatter.name}, but it is saved as ${valid}: make them the same.`, {
      fields: [{ field: "front_matter.name", message: `must be ${valid}` }],
    });
  }
  const template = input.template ?? null;
  if (frontMatter.template !== undefined && template === null) {
    throw new ApiError("invalid_pattern", `The front matter names the template ${frontMatter.template}, but no template was sent: send it, or remove the template line.`, {
      fields: [{ field: "template", message: "required because the front matter names a template" }],
    });
  }
  const fields = { title, description: frontMatter.description, triggers: JSON.stringify(frontMatter.triggers), markdown: input.markdown, template, hasTemplate: template !== null, updatedAt: new Date(now()) };
  const replaced = await db().pattern.updateMany({ where: { userId, name: valid }, data: fields });
  if (replaced.count === 0) {
    try {
      const row = await transaction(async (tx) => {
        // Reserved like drops: one conditional update, so concurrent saves never pass the limit.
        const reserved = await tx.user.updateMany({ where: { id: userId, patternCount: { lt: PATTERN_LIMITS.patternsPerAccount } }, data: { patternCount: { increment: 1 } } });
        if (reserved.count === 0) {
          throw new ApiError("quota_exceeded", `The account holds ${PATTERN_LIMITS.patternsPerAccount} patterns, the most it may: delete one first.`, {
            max_patterns: PATTERN_LIMITS.patternsPerAccount,
          });
        }
        return tx.pattern.create({ data: { id: newId(), userId, name: valid, createdAt: fields.updatedAt, ...fields } });
      });
      return { pattern: accountPattern(row), created: true };
    } catch (error) {
      // Another request created the same name a moment ago (and its reservation stands): this one replaces it.
      if (!isUniqueViolation(error)) throw error;
      await db().pattern.updateMany({ where: { userId, name: valid }, data: fields });
    }
  }
  const row = await db().pattern.findUniqueOrThrow({ where: { userId_name: { userId, name: valid } } });
  return { pattern: accountPattern(row), created: false };
}

/** Deletes one of the account's own patterns; a built-in one of the same name shows again. Counts as a write. */
export async function deletePattern(userId: string, name: string): Promise<void> {
  const valid = parseInput(patternNameSchema, name, "name");
  await assertWriteAllowed(userId);
  const count = await transaction(async (tx) => {
    const { count: deleted } = await tx.pattern.deleteMany({ where: { userId, name: valid } });
    if (deleted > 0) await tx.user.update({ where: { id: userId }, data: { patternCount: { decrement: deleted } } });
    return deleted;
  });
  if (count === 0) {
    const reason = builtinPatterns().has(valid) ? `${valid} is a built-in pattern, and only your own patterns can be deleted` : `you have no pattern named ${valid}`;
    throw new ApiError("not_found", `Nothing to delete: ${reason}.`);
  }
}

/** `/.well-known/patterns/index.json`: the built-in catalog, public. */
export function publicPatternIndex(): PatternIndex {
  return {
    version: 1,
    patterns: [...builtinPatterns().values()].map((pattern) => {
      const summary = builtinSummary(pattern);
      return {
        name: summary.name,
        description: summary.description,
        triggers: summary.triggers,
        url: summary.url!,
        ...(summary.template_url ? { template_url: summary.template_url } : {}),
      };
    }),
  };
}

type CatalogEntry = { file: "index" } | { file: "guide"; markdown: string } | { file: "template"; template: string };

/** What a file name of the public catalog names (`index.json`, `<name>.md`, `<name>.template.html`), or null. */
function catalogEntry(file: string): CatalogEntry | null {
  if (file === "index.json") return { file: "index" };
  const named = parsePatternFileName(file);
  const pattern = named ? builtinPatterns().get(named.name) : undefined;
  if (!named || !pattern) return null;
  if (named.file === "guide") return { file: "guide", markdown: pattern.markdown };
  return pattern.template === null ? null : { file: "template", template: pattern.template };
}

/** Whether the public catalog has this file, without building it. */
export function isPublicCatalogFile(file: string): boolean {
  return catalogEntry(file) !== null;
}

export type CatalogFile = { body: string; contentType: string };

/** A file of the public catalog by its name, or null. */
export function publicCatalogFile(file: string): CatalogFile | null {
  const entry = catalogEntry(file);
  if (entry === null) return null;
  if (entry.file === "index") return { body: JSON.stringify(publicPatternIndex()), contentType: "application/json" };
  if (entry.file === "guide") return { body: entry.markdown, contentType: "text/markdown; charset=utf-8" };
  return { body: entry.template, contentType: "text/html; charset=utf-8" };
}
