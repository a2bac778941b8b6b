// The dashboard's webhook forms: what "Add endpoint" posts, read with the same schema as POST /api/webhooks,
// how a refusal becomes a sentence under the field it concerns, and how one attempt reads in a form's
// live region.
import { isApiError } from "@/lib/errors";
import { parsePublicPath } from "@/lib/drops/public-urls";
import { asSentence, type FormState } from "./form-state";
import { parseInput } from "@/lib/schemas/errors";
import { createWebhookBodySchema, type CreateWebhookInput, type DeliveryJson } from "@/lib/schemas/webhooks";
import { parseTagLines } from "./forms";
import { DASHBOARD_MESSAGES } from "./messages";
import { FieldError, formText } from "./text-upload";

export const WEBHOOKS_PATH = "/dashboard/webhooks";

/** The fields "Add endpoint" can point an error at; "form" is the form as a whole. */
export type WebhookField = "url" | "description" | "events" | "drops" | "metadata" | "form";
const FIELDS: readonly WebhookField[] = ["url", "description", "events", "drops", "metadata"];

/** What the typed fields held, so a refused form comes back filled in even without JavaScript. */
export type WebhookValues = { url?: string; description?: string; events?: string[]; drops?: string; metadata?: string };

/** "Add endpoint"'s result: the secret, once; or the field a refusal concerns and what was typed. */
export type NewWebhookState = FormState & { created?: { id: string; url: string; secret: string }; field?: WebhookField; values?: WebhookValues };

export function webhookValuesFromForm(form: FormData): WebhookValues {
  return {
    url: formText(form, "url"),
    description: formText(form, "description"),
    events: form.getAll("events").filter((value) => typeof value === "string"),
    drops: formText(form, "drops"),
    metadata: formText(form, "metadata"),
  };
}

/** Slugs separated by spaces, commas or lines; a drop's viewer link is taken for its slug. */
function dropsFromText(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => parsePublicPath(entry)?.slug ?? entry);
}

function tagsFromText(text: string): Record<string, string> {
  try {
    return parseTagLines(text);
  } catch (error) {
    throw isApiError(error) ? new FieldError("metadata", error.message) : error;
  }
}

export function webhookRequestFromForm(form: FormData): CreateWebhookInput {
  const description = formText(form, "description").trim();
  const drops = dropsFromText(formText(form, "drops"));
  const metadata = tagsFromText(formText(form, "metadata"));
  return parseInput(createWebhookBodySchema, {
    url: formText(form, "url").trim(),
    events: form.getAll("events").filter((value) => typeof value === "string"),
    ...(description ? { description } : {}),
    // Left empty: every drop, any tags (the API's own meaning of a field left out).
    ...(drops.length > 0 ? { drops } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  });
}

/** A drops entry that is not a slug, in the words of the field. */
function notASlugMessage(entry: string): string {
  return `“${entry.slice(0, 80)}” is not a drop: give each drop's slug (the letters and digits after /p/ in its link) or its link.`;
}

/** One schema issue (`drops.2`, `metadata.team`, `url`) in the words of the field it is shown under. */
function issueSentence(path: string, message: string, drops: string[]): { field: WebhookField; message: string } {
  const dot = path.indexOf(".");
  const top = dot < 0 ? path : path.slice(0, dot);
  const rest = dot < 0 ? "" : path.slice(dot + 1);
  const field = (FIELDS as readonly string[]).includes(top) ? (top as WebhookField) : "form";
  if (field === "drops" && /^\d+$/.test(rest)) return { field, message: notASlugMessage(drops[Number(rest)] ?? "") };
  if (field === "metadata" && rest) return { field, message: asSentence(`Tag ${rest}: ${message}`) };
  return { field, message: asSentence(message) };
}

/** A refusal as "Add endpoint" shows it: the field it concerns, a plain sentence, and what was typed. */
export function webhookErrorState(error: unknown, form: FormData): NewWebhookState {
  const values = webhookValuesFromForm(form);
  const refusal = (field: WebhookField, message: string): NewWebhookState => ({ status: "error", message, field, values });
  if (error instanceof FieldError) return refusal(error.field as WebhookField, error.message);
  if (!isApiError(error)) {
    console.error("dashboard action failed", error);
    return refusal("form", DASHBOARD_MESSAGES.unexpected);
  }
  const [first] = (error.details?.fields as { field: string; message: string }[] | undefined) ?? [];
  if (error.code !== "invalid_arg" || !first) return refusal("form", error.message);
  const { field, message } = issueSentence(first.field, first.message, dropsFromText(values.drops ?? ""));
  return refusal(field, message);
}

/** "Answered 200 in 35 ms" or what went wrong, for the attempt a test or "send again" just made. */
export function describeAttempt(delivery: DeliveryJson): FormState {
  const last = delivery.log.at(-1);
  if (!last) return { status: "error", message: "Nothing was sent: the delivery is being sent already." };
  if (delivery.status === "succeeded") return { status: "ok", message: `Delivered: the endpoint answered ${last.status_code} in ${last.duration_ms} ms.` };
  return { status: "error", message: `Not delivered: ${last.error ?? `the endpoint answered ${last.status_code}`}.` };
}
