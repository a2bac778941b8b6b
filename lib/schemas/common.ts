import { z } from "zod";
import { SPEC_LIMITS } from "@/lib/config";
// Up a floor, deliberately: the slug is part of the public URL vocabulary, which imports nothing.
import { SLUG_PATTERN } from "@/lib/drops/public-urls";
import { charLength, hasNoNul, nulMessage } from "./text";

export { charLength, hasNoNul, nulMessage };

export function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, "utf8");
}

/** Attaches the spec's error code to a zod issue; lib/schemas/errors.ts reads it back. */
export function specIssue(apiCode: string, details?: Record<string, unknown>) {
  return { params: { apiCode, ...(details ? { details } : {}) } };
}

export { SLUG_PATTERN };

export const slugSchema = z
  .string()
  .regex(SLUG_PATTERN)
  .describe("Identifier of the drop, as found in its url: lower-case letters and digits.");

// The spec's ^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$, case-insensitive. Checked before lower-casing, so that no
// non-ASCII letter (the Kelvin sign, say) lower-cases into a valid key.
const METADATA_KEY_PATTERN = /^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;
// As a key of a JavaScript object it names the prototype, so a map could not hold it.
const RESERVED_METADATA_KEY = "__proto__";

export const metadataKeySchema = z
  .string()
  .max(SPEC_LIMITS.metadataKeyMaxChars, `metadata keys are at most ${SPEC_LIMITS.metadataKeyMaxChars} characters`)
  .regex(METADATA_KEY_PATTERN, "metadata keys use letters, digits, '_', '.', '-' and neither start nor end with '.' or '-'")
  .transform((key) => key.toLowerCase())
  .refine((key) => key !== RESERVED_METADATA_KEY, `the metadata key ${RESERVED_METADATA_KEY} is reserved`);

export const metadataValueSchema = z
  .string({ error: "metadata values must be strings (send numbers and booleans as strings)" })
  .refine((value) => charLength(value) <= SPEC_LIMITS.metadataValueMaxChars, `metadata values are at most ${SPEC_LIMITS.metadataValueMaxChars} characters`)
  .refine(hasNoNul, nulMessage("metadata values"));

/** Adds an issue when the input object has the reserved key, which z.record would silently drop. */
function refuseReservedKey(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (value !== null && typeof value === "object" && Object.hasOwn(value, RESERVED_METADATA_KEY)) {
    ctx.addIssue({ code: "custom", message: `the metadata key ${RESERVED_METADATA_KEY} is reserved`, path: [RESERVED_METADATA_KEY], input: value });
  }
  return value;
}

export const metadataSchema = z
  .preprocess(refuseReservedKey, z.record(z.string(), metadataValueSchema))
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
      `match ^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$ (${RESERVED_METADATA_KEY} excepted) and are at most ${SPEC_LIMITS.metadataKeyMaxChars} characters; ` +
      `values are strings of at most ${SPEC_LIMITS.metadataValueMaxChars} characters.`,
  );

export type Metadata = Record<string, string>;

export const unixMillisSchema = z.number().int().describe("Unix time in milliseconds");

// Versions and pages are 32-bit columns and offsets in both databases.
const INT32_MAX = 2_147_483_647;

/**
 * A positive integer, from JSON or from the text of a path or query string. Text must be plain
 * decimal digits: z.coerce would also take "0x2", "1e1", "2.0" and " 2".
 */
export function positiveIntegerSchema(options: { max?: number; default?: number } = {}) {
  const max = options.max ?? INT32_MAX;
  const integer = z.number({ error: "must be a whole number, written in digits" }).int("must be a whole number").min(1, "must be at least 1").max(max, `must be at most ${max}`);
  // The default sits on the inner schema, where JSON Schema (OpenAPI, MCP) can show it.
  return z.preprocess(
    (value) => (typeof value === "string" && /^[0-9]{1,15}$/.test(value) ? Number(value) : value),
    options.default === undefined ? integer : integer.default(options.default),
  );
}

export const pageSchema = positiveIntegerSchema({ default: 1 }).describe("Page number, from 1.");
export const pageSizeSchema = positiveIntegerSchema({ max: SPEC_LIMITS.pageSizeMax, default: SPEC_LIMITS.pageSizeDefault }).describe(`Items per page, 1 to ${SPEC_LIMITS.pageSizeMax}.`);
export const versionNumberSchema = positiveIntegerSchema().describe("Version number, from 1.");
