// The dashboard's publishing forms ("New drop" and "New version"): how their fields become the API's
// create and replace bodies (validated by the same schemas), and how a refusal becomes a plain sentence
// next to the field it concerns.
import { SPEC_LIMITS } from "@/lib/config";
import { isApiError } from "@/lib/errors";
import { COMMENT_POLICIES, type CommentPolicy } from "@/lib/schemas/comments";
import { createDropBodySchema, replaceDropBodySchema, versionNumberSchema, type CreateDropInput, type ReplaceDropInput } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";
import { formatBytes } from "./format";
import { parseTagLines } from "./forms";
import { DASHBOARD_MESSAGES } from "./messages";
import { FieldError, formText, HTML_UPLOAD, readTextUpload, tooLargeMessage } from "./text-upload";

const L = SPEC_LIMITS;

/** What the publishing forms tell the browser about the rules the server applies again. */
export const PUBLISH_LIMITS = {
  htmlMaxBytes: L.htmlMaxBytes,
  titleMaxChars: L.titleMaxChars,
  descriptionMaxChars: L.descriptionMaxChars,
  passcodeMinChars: L.passcodeMinChars,
};

/** The fields a publishing form can point an error at; "form" is the form as a whole. */
export type PublishField = "title" | "description" | "tags" | "passcode" | "context" | "html" | "form";

/**
 * What the typed fields held, so a refused form comes back filled in even without JavaScript (never the
 * passcode); the editor's base version with them, so its text stays tied to the version it came from.
 */
export type PublishValues = {
  title?: string;
  description?: string;
  tags?: string;
  context?: string;
  html?: string;
  indexable?: boolean;
  comments?: CommentPolicy;
  baseVersion?: string;
};

/** `published`: the version a success made. `latest`: the version that made the editor's base stale. */
export type PublishState = { status: "idle" | "ok" | "error"; message: string; field?: PublishField; values?: PublishValues; published?: number; latest?: number };

/** The document: a chosen (or dropped) file, or pasted text; exactly one of them. The viewer serves it as UTF-8 HTML. */
export async function htmlFromForm(form: FormData): Promise<string> {
  return readTextUpload(form, HTML_UPLOAD, { maxBytes: L.htmlMaxBytes, missing: DASHBOARD_MESSAGES.htmlMissing, both: DASHBOARD_MESSAGES.htmlBoth, tooLarge });
}

function tooLarge(bytes: number): string {
  return `${tooLargeMessage(HTML_UPLOAD, bytes, L.htmlMaxBytes)} Make it smaller (move large images out, or compress them) and try again.`;
}

/**
 * The editor's base: the version its text was opened from, which PUT takes as If-Match, so a version
 * someone published meanwhile is refused rather than silently undone. The upload form sends none.
 */
export function baseVersionFromForm(form: FormData): number | undefined {
  const base = formText(form, "base_version");
  if (base === "") return undefined;
  const parsed = versionNumberSchema.safeParse(base);
  if (!parsed.success) throw new FieldError("form", DASHBOARD_MESSAGES.notAForm);
  return parsed.data;
}

/** The indexing box: a ticked checkbox posts "on", an unticked one nothing. */
function indexableFromForm(form: FormData): boolean {
  return form.get("indexable") === "on";
}

/** The comment choice as sent (the schema checks it), or undefined when the form has none. */
function commentsFromForm(form: FormData): string | undefined {
  const value = form.get("comments");
  return typeof value === "string" ? value : undefined;
}

function isCommentPolicy(value: string | undefined): value is CommentPolicy {
  return (COMMENT_POLICIES as readonly string[]).includes(value ?? "");
}

/** What the form held, handed back with a refusal. */
export function valuesFromForm(form: FormData): PublishValues {
  const comments = commentsFromForm(form);
  return {
    title: formText(form, "title"),
    description: formText(form, "description"),
    tags: formText(form, "tags"),
    context: formText(form, "context"),
    html: formText(form, "html"),
    indexable: indexableFromForm(form),
    ...(isCommentPolicy(comments) ? { comments } : {}),
    ...(form.has("base_version") ? { baseVersion: formText(form, "base_version") } : {}),
  };
}

/** The "New drop" form as POST /api/drops's body, validated by the same schema. */
export async function createInputFromForm(form: FormData): Promise<CreateDropInput> {
  const html = await htmlFromForm(form);
  const description = formText(form, "description");
  const passcode = formText(form, "passcode");
  const context = formText(form, "context");
  const metadata = tagsFromForm(form);
  const comments = commentsFromForm(form);
  return parseInput(createDropBodySchema, {
    title: formText(form, "title"),
    html,
    ...(description.trim() ? { description } : {}),
    ...(passcode ? { passcode } : {}),
    ...(context.trim() ? { context } : {}),
    ...(Object.keys(metadata).length ? { metadata } : {}),
    ...(indexableFromForm(form) ? { indexable: true } : {}),
    // Left out by a form posted without the choice: the account's default, as on the API.
    ...(comments !== undefined ? { comments } : {}),
  });
}

/** The "New version" form as PUT /api/drops/{slug}'s body: the document and its context. */
export async function replaceInputFromForm(form: FormData): Promise<ReplaceDropInput> {
  const html = await htmlFromForm(form);
  const context = formText(form, "context");
  return parseInput(replaceDropBodySchema, { html, ...(context.trim() ? { context } : {}) });
}

function tagsFromForm(form: FormData): Record<string, string> {
  try {
    return parseTagLines(formText(form, "tags"));
  } catch (error) {
    if (isApiError(error)) throw new FieldError("tags", error.message);
    throw error;
  }
}

const FIELD_OF_CODE: Partial<Record<string, PublishField>> = {
  title_required: "title",
  title_too_long: "title",
  description_too_long: "description",
  html_required: "html",
  html_too_large: "html",
  context_too_large: "context",
  passcode_too_short: "passcode",
};

const FIELD_OF_BODY_FIELD: Record<string, PublishField> = { title: "title", description: "description", passcode: "passcode", context: "context", metadata: "tags", html: "html" };

/** The schema's sentence for a field, as a person reads it: "Check the tags: keys use letters, …". */
function plainFieldMessage(target: PublishField, bodyField: string, message: string): string {
  if (target === "tags") {
    const key = bodyField.split(".").slice(1).join(".");
    return `Check the tag${key ? ` “${key}”` : "s"}: ${message.replace(/^metadata (keys|values)/, "tag $1").replace(/^metadata/, "tags")}.`;
  }
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}

function plainSpecError(code: string): string | null {
  switch (code) {
    case "title_required":
      return DASHBOARD_MESSAGES.titleMissing;
    case "title_too_long":
      return `The title is too long: at most ${L.titleMaxChars} characters.`;
    case "description_too_long":
      return `The description is too long: at most ${L.descriptionMaxChars} characters.`;
    case "html_required":
      return DASHBOARD_MESSAGES.htmlMissing;
    case "context_too_large":
      return `The context is too long: at most ${formatBytes(L.contextMaxBytes)} of text.`;
    case "passcode_too_short":
      return `A passcode needs at least ${L.passcodeMinChars} characters.`;
    default:
      return null;
  }
}

/** The editor's text was opened from `base`, and `latest` was published since: publishing it would undo `latest`. */
export function staleBaseMessage(base: string, latest: number): string {
  return `Version ${latest} was published after version ${base}, the one your text is based on, and publishing yours would undo it. Nothing was published: copy your changes, open version ${latest} in the editor and make them there.`;
}

/**
 * A refusal as the form shows it: the field it concerns and a plain sentence. Limits of the account
 * (drops, versions, writes) already speak plainly and concern the whole form; another account's drop
 * reads like a missing one.
 */
export function publishErrorState(error: unknown, values: PublishValues = {}): { field: PublishField; message: string; latest?: number } {
  const { html, baseVersion } = values;
  if (error instanceof FieldError) return { field: error.field as PublishField, message: error.message };
  if (!isApiError(error)) {
    console.error("dashboard action failed", error);
    return { field: "form", message: DASHBOARD_MESSAGES.unexpected };
  }
  if (error.code === "forbidden" || error.code === "not_found" || error.code === "invalid_slug") return { field: "form", message: DASHBOARD_MESSAGES.dropNotFound };
  const latest = error.details?.latest_version;
  if (error.code === "version_conflict" && baseVersion && typeof latest === "number") return { field: "form", message: staleBaseMessage(baseVersion, latest), latest };
  const byCode = FIELD_OF_CODE[error.code];
  if (byCode) {
    const message = error.code === "html_too_large" ? tooLarge(html === undefined ? L.htmlMaxBytes + 1 : Buffer.byteLength(html)) : plainSpecError(error.code);
    return { field: byCode, message: message ?? error.message };
  }
  const first = (error.details?.fields as { field: string; message: string }[] | undefined)?.[0];
  const target = first ? FIELD_OF_BODY_FIELD[first.field.split(".")[0]!] : undefined;
  if (first && target) return { field: target, message: plainFieldMessage(target, first.field, first.message) };
  return { field: "form", message: error.message };
}
