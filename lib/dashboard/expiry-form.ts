// The dashboard's expiry form. Presets go as ttl_seconds, so the server's own clock decides the
// instant and a wrong clock on the owner's device cannot move it. A custom date and time goes as
// expires_at: a `datetime-local` value has no time zone, so the page's script converts it in the
// browser (which knows the owner's zone, daylight saving included) and posts the exact instant as
// `custom_ms`; without JavaScript only the typed value arrives, and the form says it is read as UTC.
import { ApiError, isApiError } from "@/lib/errors";
import { parsePatchDropBody, type PatchDropInput } from "@/lib/schemas/drops";
import { DASHBOARD_MESSAGES } from "./messages";
import { formText } from "./text-upload";

export const EXPIRY_PRESETS = [
  { value: "1h", label: "In 1 hour", seconds: 3_600 },
  { value: "1d", label: "In 1 day", seconds: 86_400 },
  { value: "7d", label: "In 7 days", seconds: 7 * 86_400 },
  { value: "30d", label: "In 30 days", seconds: 30 * 86_400 },
] as const;

export const CUSTOM_EXPIRY = "custom";

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

function field(form: FormData, name: string): string {
  return formText(form, name).trim();
}

function refuse(message: string): never {
  throw new ApiError("invalid_arg", message, { field: "expiry" });
}

/** A `datetime-local` value read as UTC, the no-JavaScript fallback; null when no such moment exists. */
export function parseUtcDateTime(value: string): number | null {
  const parts = LOCAL_DATE_TIME.exec(value);
  if (!parts) return null;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = parts.slice(1, 7).map((part) => Number(part ?? 0));
  const wanted = [year, month, day, hour, minute, second];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 April over into 1 May (and 24:00 into the next day); a moment that moved did not exist.
  const back = new Date(ms);
  const got = [back.getUTCFullYear(), back.getUTCMonth() + 1, back.getUTCDate(), back.getUTCHours(), back.getUTCMinutes(), back.getUTCSeconds()];
  return got.every((part, index) => part === wanted[index]) ? ms : null;
}

/** The PATCH fields for the chosen expiry, checked by the shared schema; plain-worded refusals otherwise. */
export function expiryInputFromForm(form: FormData): PatchDropInput {
  const choice = field(form, "expiry");
  const preset = EXPIRY_PRESETS.find((candidate) => candidate.value === choice);
  if (preset) return parsePatchDropBody({ ttl_seconds: preset.seconds });
  if (choice !== CUSTOM_EXPIRY) refuse(DASHBOARD_MESSAGES.expiryChoiceMissing);
  const typed = field(form, "custom_local");
  if (!typed) refuse(DASHBOARD_MESSAGES.expiryCustomMissing);
  const converted = field(form, "custom_ms");
  const expiresAt = /^\d{1,15}$/.test(converted) ? Number(converted) : parseUtcDateTime(typed);
  if (expiresAt === null) refuse(DASHBOARD_MESSAGES.expiryCustomInvalid);
  return parsePatchDropBody({ expires_at: expiresAt });
}

/** The service's time checks (lib/drops/expiry.ts) name the API field; the form says the same in plain words. */
export function plainExpiryError(error: unknown): unknown {
  if (!isApiError(error) || error.details?.field !== "expires_at") return error;
  const tooFar = error.details.max !== undefined;
  return new ApiError(error.code, tooFar ? DASHBOARD_MESSAGES.expiryTooFar : DASHBOARD_MESSAGES.expiryInPast, { field: "expiry" });
}
