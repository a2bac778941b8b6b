// The dashboard's pattern form: how its fields become PUT /api/patterns/{name}'s body (validated by the
// same schema, saved by the same service), and how a refusal becomes a plain sentence under the field it
// concerns.
import { isApiError, type ApiError } from "@/lib/errors";
import { parseInput } from "@/lib/schemas/errors";
import { PATTERN_LIMITS, savePatternBodySchema, templateFileName, type SavePatternInput } from "@/lib/schemas/patterns";
import { asSentence } from "./form-state";
import { DASHBOARD_MESSAGES } from "./messages";
import { FieldError, formText, PATTERN_MARKDOWN_UPLOAD, PATTERN_TEMPLATE_UPLOAD, readTextUpload, tooLargeMessage, type TextUpload } from "./text-upload";

const L = PATTERN_LIMITS;

/** What the pattern form tells the browser about the rules the server applies again. */
export const PATTERN_FORM_LIMITS = { nameMaxChars: L.nameMaxChars, markdownMaxBytes: L.markdownMaxBytes, templateMaxBytes: L.templateMaxBytes };

/** The fields the pattern form can point an error at; "form" is the form as a whole. */
export type PatternField = "name" | "markdown" | "template" | "form";

/** What the typed fields held, so a refused form comes back filled in even without JavaScript. */
export type PatternValues = { name?: string; markdown?: string; template?: string };

export type PatternState = { status: "idle" | "ok" | "error"; message: string; field?: PatternField; values?: PatternValues };

const UPLOADS: Record<"markdown" | "template", { upload: TextUpload; maxBytes: number }> = {
  markdown: { upload: PATTERN_MARKDOWN_UPLOAD, maxBytes: L.markdownMaxBytes },
  template: { upload: PATTERN_TEMPLATE_UPLOAD, maxBytes: L.templateMaxBytes },
};

function tooLarge(target: "markdown" | "template", bytes: number): string {
  const { upload, maxBytes } = UPLOADS[target];
  return `${tooLargeMessage(upload, bytes, maxBytes)} Make it shorter and try again.`;
}

export function patternValuesFromForm(form: FormData): PatternValues {
  return { name: formText(form, "name"), markdown: formText(form, "markdown"), template: formText(form, "template") };
}

/** The form as the pattern's name and PUT /api/patterns/{name}'s body; the Markdown is required, the template is not. */
export async function patternSaveFromForm(form: FormData): Promise<{ name: string; input: SavePatternInput }> {
  const name = formText(form, "name").trim();
  if (name === "") throw new FieldError("name", DASHBOARD_MESSAGES.patternNameMissing);
  const markdown = await readTextUpload(form, PATTERN_MARKDOWN_UPLOAD, {
    maxBytes: L.markdownMaxBytes,
    missing: DASHBOARD_MESSAGES.patternMarkdownMissing,
    both: DASHBOARD_MESSAGES.patternMarkdownBoth,
    tooLarge: (bytes) => tooLarge("markdown", bytes),
  });
  const template = await readTextUpload(form, PATTERN_TEMPLATE_UPLOAD, {
    maxBytes: L.templateMaxBytes,
    missing: null,
    both: DASHBOARD_MESSAGES.patternTemplateBoth,
    tooLarge: (bytes) => tooLarge("template", bytes),
  });
  return { name, input: parseInput(savePatternBodySchema, { markdown, ...(template === null ? {} : { template }) }) };
}

type FieldIssue = { field: string; message: string };

function fieldIssues(error: ApiError): FieldIssue[] {
  return (error.details?.fields as FieldIssue[] | undefined) ?? [];
}

/** invalid_pattern: what is wrong with the front matter or the guide, under the Markdown (or the template it names). */
function invalidPatternState(error: ApiError, name: string): { field: PatternField; message: string } {
  const issues = fieldIssues(error);
  if (issues.some((issue) => issue.field === "template")) {
    return { field: "template", message: `The front matter names a template (template: ${templateFileName(name)}). Add it here, or remove the template line from the Markdown.` };
  }
  // The name mismatch, a missing front matter, bad YAML or a missing guide: the service's sentence is already plain.
  if (issues.length === 0 || issues.some((issue) => issue.field === "front_matter.name" && issue.message === `must be ${name}`)) {
    return { field: "markdown", message: error.message };
  }
  // The schema's messages are written for a person editing the YAML.
  return { field: "markdown", message: asSentence(`Check the front matter: ${issues.map((issue) => issue.message).join("; ")}`) };
}

/**
 * A refusal as the form shows it: the field it concerns and a plain sentence. The account's limits
 * (patterns, writes) concern the whole form.
 */
export function patternErrorState(error: unknown, values: PatternValues): { field: PatternField; message: string } {
  if (error instanceof FieldError) return { field: error.field as PatternField, message: error.message };
  if (!isApiError(error)) {
    console.error("dashboard action failed", error);
    return { field: "form", message: DASHBOARD_MESSAGES.unexpected };
  }
  switch (error.code) {
    case "invalid_pattern":
      return invalidPatternState(error, (values.name ?? "").trim());
    case "pattern_too_large": {
      // Only pasted text gets here: a chosen file's size is checked as it is read.
      const target = error.details?.field === "template" ? "template" : "markdown";
      return { field: target, message: tooLarge(target, Buffer.byteLength(values[target] ?? "")) };
    }
    case "quota_exceeded":
      return { field: "form", message: `You already keep ${L.patternsPerAccount} patterns, the most an account may. Delete one of yours first, or replace one by saving under its name.` };
    case "invalid_arg": {
      const [first] = fieldIssues(error);
      const target = first?.field === "name" || first?.field === "markdown" || first?.field === "template" ? first.field : "form";
      return { field: target, message: first ? asSentence(first.message) : error.message };
    }
    default:
      return { field: "form", message: error.message };
  }
}

/** Saved: the notice the page shows after the redirect. */
export function savedNotice(created: boolean, replacesBuiltin: boolean): "patternAdded" | "patternAddedOverBuiltin" | "patternReplaced" {
  if (!created) return "patternReplaced";
  return replacesBuiltin ? "patternAddedOverBuiltin" : "patternAdded";
}
