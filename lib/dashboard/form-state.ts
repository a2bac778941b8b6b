import type { z } from "zod";
import { ApiError, isApiError } from "@/lib/errors";
import { parseInput } from "@/lib/schemas/errors";
import { DASHBOARD_MESSAGES } from "./messages";

/**
 * What a dashboard server action hands back to its form. `posted`, on a refusal: what was typed in the
 * fields the form draws again (keepingPosted), since a form posted before the page hydrated comes back as
 * a new page, whose fields would otherwise show the stored values.
 */
export type FormState = { status: "idle" | "ok" | "error"; message: string; posted?: Record<string, string> };

/** A schema's message ("must be at most 64 characters") as a sentence a form shows under its field. */
export function asSentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
}

/** The shared schema's parse, its complaint about a field said as a sentence: "Email must be an email address." */
export function parseForm<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  try {
    return parseInput(schema, input);
  } catch (error) {
    const first = isApiError(error) ? (error.details?.fields as { message: string }[] | undefined)?.[0] : undefined;
    if (!first) throw error;
    throw new ApiError("invalid_arg", asSentence(first.message));
  }
}

export function ok(message: string): FormState {
  return { status: "ok", message };
}

/**
 * Turns a thrown value into the message a form shows. Another account's drop reads exactly like a
 * missing one (the API says forbidden; the dashboard must not even confirm it exists). Anything that is
 * not an ApiError is logged and shown as a generic message: no internals reach the page.
 */
export function toFormState(error: unknown, notFoundMessage: string = DASHBOARD_MESSAGES.dropNotFound): FormState {
  if (isApiError(error)) {
    if (error.code === "forbidden" || error.code === "not_found" || error.code === "invalid_slug") {
      return { status: "error", message: notFoundMessage };
    }
    return { status: "error", message: error.message };
  }
  console.error("dashboard action failed", error);
  return { status: "error", message: DASHBOARD_MESSAGES.unexpected };
}

/**
 * A refusal that keeps what was typed in `fields` (FormState's `posted`); only fields safe to show again.
 * `notFoundMessage` as toFormState's.
 */
export function keepingPosted(fields: readonly string[], notFoundMessage?: string): (error: unknown, form: FormData) => FormState {
  return (error, form) => {
    const posted: Record<string, string> = {};
    for (const field of fields) {
      const value = form.get(field);
      if (typeof value === "string") posted[field] = value;
    }
    return { ...toFormState(error, notFoundMessage), posted };
  };
}
