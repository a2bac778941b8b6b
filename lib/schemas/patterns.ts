import { z } from "zod";
import { SPEC_LIMITS } from "@/lib/config";
import { charLength, hasNoNul, nulMessage, specIssue, unixMillisSchema, utf8Bytes } from "./common";

// Patterns (addition): short Markdown guides, with an optional starting HTML document, that tell an
// agent what a good page of one kind looks like. Built-in ones are public; an account's own are not.

export const PATTERN_LIMITS = {
  nameMaxChars: 64,
  descriptionMaxChars: 300,
  triggersMax: 20,
  triggerMaxChars: 100,
  markdownMaxBytes: 65_536,
  /** Front matter holds a name, a description and triggers: far less than this. */
  frontMatterMaxBytes: 16_384,
  /** Collections inside collections in the front matter (a pattern's own keys need 2). */
  frontMatterMaxDepth: 10,
  /** A template is a drop's starting point, so it may be as large as a drop. */
  templateMaxBytes: SPEC_LIMITS.htmlMaxBytes,
  patternsPerAccount: 50,
} as const;

const P = PATTERN_LIMITS;

export const PATTERN_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const patternNameSchema = z
  .string()
  .max(P.nameMaxChars, `a pattern name is at most ${P.nameMaxChars} characters`)
  .regex(PATTERN_NAME_PATTERN, "a pattern name is kebab-case: lower-case letters and digits in words joined by single hyphens, e.g. pr-explainer")
  .describe(`The pattern's name: kebab-case, at most ${P.nameMaxChars} characters.`);

/** The file a pattern's front matter names as its template: always `<name>.template.html`, beside the pattern. */
export function templateFileName(name: string): string {
  return `${name}.template.html`;
}

/** A front-matter key's type error in words a person editing the YAML can act on (the API and the dashboard show it). */
function frontMatterTypeError(key: string, expected: string) {
  return { error: (issue: { input: unknown }) => (issue.input === undefined ? `add a “${key}:” line` : expected) };
}

const patternTextSchema = (field: string, max: number, key = field) =>
  z
    .string(frontMatterTypeError(key, `${field} must be text`))
    .trim()
    .min(1, `${field} must not be empty`)
    .refine((text) => charLength(text) <= max, `${field} is at most ${max} characters`)
    .refine(hasNoNul, nulMessage(field));

/** The YAML front matter of a pattern's Markdown; keys it does not know are ignored, as skill loaders do. */
export const patternFrontMatterSchema = z
  .object({
    name: z.string(frontMatterTypeError("name", "name must be text")).pipe(patternNameSchema),
    description: patternTextSchema("description", P.descriptionMaxChars).describe("What page the pattern produces, and for whom."),
    triggers: z
      .array(patternTextSchema("each trigger", P.triggerMaxChars), frontMatterTypeError("triggers", "triggers is a list, one “- …” line per item"))
      .min(1, "triggers lists at least one phrase")
      .max(P.triggersMax, `triggers lists at most ${P.triggersMax} phrases`)
      .describe("Phrases a person might say when this pattern fits; an agent matches them before writing HTML."),
    template: z.string().optional().describe("The starting document's file name, `<name>.template.html`, when the pattern has one."),
  })
  .superRefine((front, context) => {
    if (front.template !== undefined && front.template !== templateFileName(front.name)) {
      context.addIssue({ code: "custom", path: ["template"], message: `template names the pattern's own file, ${templateFileName(front.name)}` });
    }
  });

export type PatternFrontMatter = z.output<typeof patternFrontMatterSchema>;

export const patternMarkdownSchema = z
  .string()
  .refine((markdown) => markdown.trim().length > 0, "markdown must not be empty")
  .refine((markdown) => utf8Bytes(markdown) <= P.markdownMaxBytes, {
    message: `markdown is at most ${P.markdownMaxBytes} bytes (UTF-8)`,
    ...specIssue("pattern_too_large", { field: "markdown", max_bytes: P.markdownMaxBytes }),
  })
  .refine(hasNoNul, nulMessage("markdown"))
  .describe(
    "The pattern as Markdown: YAML front matter between `---` lines (`name`, `description`, `triggers`, optional `template`), then the guide " +
      `(sections: when to use, content checklist, layout, what not to do). At most ${P.markdownMaxBytes} bytes.`,
  );

export const patternTemplateSchema = z
  .string()
  .refine((html) => html.trim().length > 0, "template must not be empty; leave it out for a pattern without one")
  .refine((html) => utf8Bytes(html) <= P.templateMaxBytes, {
    message: `template is at most ${P.templateMaxBytes} bytes (UTF-8)`,
    ...specIssue("pattern_too_large", { field: "template", max_bytes: P.templateMaxBytes }),
  })
  .refine(hasNoNul, nulMessage("template"))
  .describe(`A self-contained HTML document to start from, at most ${P.templateMaxBytes} bytes.`);

export const savePatternBodySchema = z.strictObject({
  markdown: patternMarkdownSchema,
  template: patternTemplateSchema.nullable().optional().describe("The starting HTML document; null or absent for none."),
});

export type SavePatternInput = z.output<typeof savePatternBodySchema>;

export const PATTERN_SOURCES = ["account", "builtin"] as const;

export const patternSummarySchema = z.object({
  name: patternNameSchema,
  title: z.string().nullable().describe("The guide's first level-one heading (at most 120 characters), or null when it has none."),
  description: z.string(),
  triggers: z.array(z.string()),
  source: z.enum(PATTERN_SOURCES).describe("`account`: your own, shown only to your account's credentials; `builtin`: the service's public catalog."),
  has_template: z.boolean(),
  url: z.string().nullable().describe("The public Markdown of a built-in pattern; null for your own."),
  template_url: z.string().nullable().describe("The public template of a built-in pattern; null otherwise."),
  updated_at: unixMillisSchema.nullable().describe("When you last saved it; null for a built-in pattern."),
});

export const patternListSchema = z.object({
  patterns: z.array(patternSummarySchema).describe("Your own patterns and the built-in ones, by name; yours replace a built-in one of the same name."),
});

export const patternSchema = patternSummarySchema.extend({
  markdown: z.string().describe("The pattern as Markdown with its front matter."),
  template: z.string().nullable().describe("The starting HTML document, or null."),
});

export const deletePatternResultSchema = z.object({ deleted: z.literal(true), name: patternNameSchema });

/** The public catalog's index, `/.well-known/patterns/index.json`: built-in patterns only. */
export const patternIndexSchema = z.object({
  version: z.literal(1).describe("The index format's version."),
  patterns: z.array(
    z.object({
      name: patternNameSchema,
      description: z.string(),
      triggers: z.array(z.string()),
      url: z.string(),
      template_url: z.string().optional(),
    }),
  ),
});

export type PatternSummary = z.output<typeof patternSummarySchema>;
export type Pattern = z.output<typeof patternSchema>;
export type PatternIndex = z.output<typeof patternIndexSchema>;
