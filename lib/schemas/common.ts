import { z } from "zod";
import { SPEC_LIMITS } from "@/lib/config";

/** Length in characters (Unicode code points), the unit of the spec's title, description and metadata limits. */
export function charLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

export function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, "utf8");
}

/** Attaches the spec's error code to a zod issue; lib/schemas/errors.ts reads it back. */
export function specIssue(apiCode: string, details?: Record<string, unknown>) {
  return { params: { apiCode, ...(details ? { details } : {}) } };
}

export const SLUG_PATTERN = /^[a-z0-9]{6,64}$/;

export const slugSchema = z
  .string()
  .regex(SLUG_PATTERN)
  .describe("Identifier of the drop, as found in its url: lower-case letters and digits.");

export const METADATA_KEY_PATTERN = /^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/;

export const metadataKeySchema = z
  .string()
  .transform((key) => key.toLowerCase())
  .pipe(
    z
      .string()
      .max(SPEC_LIMITS.metadataKeyMaxChars, `metadata keys are at most ${SPEC_LIMITS.metadataKeyMaxChars} characters`)
      .regex(METADATA_KEY_PATTERN, "metadata keys use letters, digits, '_', '.', '-' and neither start nor end with '.' or '-'"),
  );

export const metadataValueSchema = z
  .string({ error: "metadata values must be strings (send numbers and booleans as strings)" })
  .refine((value) => charLength(value) <= SPEC_LIMITS.metadataValueMaxChars, `metadata values are at most ${SPEC_LIMITS.metadataValueMaxChars} characters`);

export const metadataSchema = z
  .record(z.string(), metadataValueSchema)
  .superRefine((map, ctx) => {
    const keys = Object.keys(map);
    if (keys.length > SPEC_LIMITS.metadataMaxKeys) {
      ctx.addIssue({ code: "custom", message: `metadata has at most ${SPEC_LIMITS.metadataMaxKeys} keys`, input: map });
    }
    const seen = new Set<string>();
    for (const key of keys) {
      const parsed = metadataKeySchema.safeParse(key);
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? "invalid metadata key", path: [key], input: key });
      } else if (seen.has(parsed.data)) {
        ctx.addIssue({ code: "custom", message: "metadata keys are case-insensitive: this key is given twice", path: [key], input: key });
      } else {
        seen.add(parsed.data);
      }
    }
  })
  .transform((map) => Object.fromEntries(Object.entries(map).map(([key, value]) => [key.toLowerCase(), value])))
  .describe(
    `Owner-only string tags, never shown publicly. At most ${SPEC_LIMITS.metadataMaxKeys} keys; keys are case-insensitive (stored lower-case), ` +
      `match ^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$ and are at most ${SPEC_LIMITS.metadataKeyMaxChars} characters; values are strings of at most ${SPEC_LIMITS.metadataValueMaxChars} characters.`,
  );

export type Metadata = Record<string, string>;

export const unixMillisSchema = z.number().int().describe("Unix time in milliseconds");
