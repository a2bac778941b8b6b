import { ApiError } from "@/lib/errors";
import type { PatchDropInput } from "@/lib/schemas/drops";
import { parsePatchDropBody } from "@/lib/schemas/drops";
import { formText as field } from "./text-upload";

/** Tags as the dashboard edits them: one `key=value` per line, in key order. */
export function formatTagLines(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key}=${value}`)
    .join("\n");
}

/** Reads `key=value` lines (blank lines ignored) into a metadata map; the shared schema validates it afterwards. */
export function parseTagLines(text: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed) return;
    const at = trimmed.indexOf("=");
    if (at <= 0) throw new ApiError("invalid_arg", `Tag line ${index + 1} ("${trimmed.slice(0, 40)}") must look like key=value.`);
    metadata[trimmed.slice(0, at).trim()] = trimmed.slice(at + 1).trim();
  });
  return metadata;
}

/** A metadata map in a canonical form, so the edit form can tell whether the tags really changed. */
export function canonicalTags(metadata: Record<string, string>): string {
  return JSON.stringify(Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The edit form posts every field with its value when the page was rendered (`original_*`; tags as canonicalTags). Only the
 * fields the human changed go into the PATCH, so a concurrent change by an agent to another field survives.
 */
export function patchInputFromForm(form: FormData): PatchDropInput {
  const body: Record<string, unknown> = {};
  const title = field(form, "title");
  if (title !== field(form, "original_title")) body.title = title;
  const description = field(form, "description");
  if (description !== field(form, "original_description")) body.description = description;
  const metadata = parseTagLines(field(form, "tags"));
  if (canonicalTags(metadata) !== field(form, "original_tags")) body.metadata = metadata;
  return parsePatchDropBody(body);
}

/** The list's tag filter box: `key=value` pairs separated by commas, as the API's AND of metadata.<key> filters. */
export function parseTagFilter(text: string): [string, string][] {
  return text
    .split(",")
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf("=");
      if (at <= 0) throw new ApiError("invalid_arg", `Tag filter "${pair.slice(0, 40)}" must look like key=value.`);
      return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    });
}
