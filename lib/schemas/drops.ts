import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { parseInput } from "./errors";
import { COMMENT_POLICIES, commentPolicySchema, createCommentPolicySchema, resolvesSchema } from "./comments";
import { SPEC_LIMITS } from "@/lib/config";
import { DROP_ACCESS_LEVELS } from "@/lib/sharing/levels";
import {
  charLength,
  hasNoNul,
  metadataKeySchema,
  metadataSchema,
  metadataValueSchema,
  nulMessage,
  pageSchema,
  pageSizeSchema,
  positiveIntegerSchema,
  slugSchema,
  specIssue,
  unixMillisSchema,
  utf8Bytes,
  versionNumberSchema,
} from "./common";

const L = SPEC_LIMITS;

export const titleSchema = z
  .string()
  .refine((title) => title.trim().length > 0, { message: "title must not be empty", ...specIssue("title_required") })
  .refine((title) => charLength(title) <= L.titleMaxChars, {
    message: `title is at most ${L.titleMaxChars} characters`,
    ...specIssue("title_too_long", { max_chars: L.titleMaxChars }),
  })
  .refine(hasNoNul, nulMessage("title"))
  .describe(`Title shown on the viewer page, at most ${L.titleMaxChars} characters.`);

export const descriptionSchema = z
  .string()
  .refine((description) => charLength(description) <= L.descriptionMaxChars, {
    message: `description is at most ${L.descriptionMaxChars} characters`,
    ...specIssue("description_too_long", { max_chars: L.descriptionMaxChars }),
  })
  .refine(hasNoNul, nulMessage("description"))
  .nullable()
  .describe(`Optional description, at most ${L.descriptionMaxChars} characters; null or "" removes it.`);

export const htmlSchema = z
  .string()
  .refine((html) => html.length > 0, { message: "html must not be empty", ...specIssue("html_required") })
  .refine((html) => utf8Bytes(html) <= L.htmlMaxBytes, {
    message: `html is at most ${L.htmlMaxBytes} bytes (UTF-8)`,
    ...specIssue("html_too_large", { max_bytes: L.htmlMaxBytes }),
  })
  .describe(`A complete, self-contained HTML document, at most ${L.htmlMaxBytes} bytes of UTF-8. It is served as uploaded inside a sandboxed iframe.`);

export const contextSchema = z
  .string()
  .refine((context) => utf8Bytes(context) <= L.contextMaxBytes, {
    message: `context is at most ${L.contextMaxBytes} bytes (UTF-8)`,
    ...specIssue("context_too_large", { max_bytes: L.contextMaxBytes }),
  })
  .refine(hasNoNul, nulMessage("context"))
  .describe(`Optional reasoning trace recorded with this version, at most ${L.contextMaxBytes} bytes; viewers can expand it under the drop.`);

export const passcodeSchema = z
  .string()
  .refine((passcode) => passcode === "" || charLength(passcode) >= L.passcodeMinChars, {
    message: `passcode is at least ${L.passcodeMinChars} characters`,
    ...specIssue("passcode_too_short", { min_chars: L.passcodeMinChars }),
  })
  .refine((passcode) => charLength(passcode) <= 256, "passcode is at most 256 characters")
  // Stored only as a hash, but no one could type it into the gate's form.
  .refine(hasNoNul, nulMessage("passcode"))
  .describe(`Soft share gate, not encryption: at least ${L.passcodeMinChars} characters; "" means no gate.`);

/** The furthest expiry accepted: far enough for any share, near enough to catch a typo in the year. */
export const EXPIRY_MAX_SECONDS = 10 * 365 * 86_400;

export const expiresAtSchema = z
  .number({ error: "expires_at must be a Unix time in milliseconds, or null" })
  .int("expires_at must be a whole number of milliseconds")
  .min(0, "expires_at must be a Unix time in milliseconds")
  .nullable()
  .describe(
    "When the link stops working, as Unix time in milliseconds (in the future, at most 10 years ahead); null removes the expiry. " +
      "After it the viewer and raw answer 410 Gone; the drop itself is deleted after the operator's retention period (EXPIRED_RETENTION_DAYS, default 7). Give this or ttl_seconds.",
  );

export const ttlSecondsSchema = z
  .number({ error: "ttl_seconds must be a whole number of seconds" })
  .int("ttl_seconds must be a whole number of seconds")
  .min(1, "ttl_seconds must be at least 1")
  .max(EXPIRY_MAX_SECONDS, `ttl_seconds must be at most ${EXPIRY_MAX_SECONDS} (10 years)`)
  .describe("The expiry as seconds from now, instead of expires_at.");

export const indexableSchema = z
  .boolean({ error: "indexable must be true or false" })
  .describe(
    "true lets search engines index the drop's viewer page, raw HTML and preview image; false (the default) keeps them out " +
      "with X-Robots-Tag: noindex and a robots meta tag.",
  );

export const dropAccessSchema = z
  .enum(DROP_ACCESS_LEVELS, { error: `access must be one of ${DROP_ACCESS_LEVELS.join(", ")}` })
  .describe(
    'Who may open the drop (addition): "public" (anyone with the URL, the spec\'s behaviour), "signed_in" (people signed in to this instance, or to its org) ' +
      'or "restricted" (the owner and the people and teams on its list, GET /api/drops/{slug}/members). Only the owner changes it; ' +
      "a passcode and an expiry still apply on top. Left out on create, the instance's default (DEFAULT_DROP_ACCESS).",
  );

/** The optional expiry fields every write takes; lib/drops/expiry.ts turns them into a date. */
const expiryFields = { expires_at: expiresAtSchema.optional(), ttl_seconds: ttlSecondsSchema.optional() };

export const createDropBodySchema = z.strictObject({
  title: titleSchema,
  description: descriptionSchema.optional(),
  html: htmlSchema,
  passcode: passcodeSchema.optional(),
  context: contextSchema.optional(),
  metadata: metadataSchema.optional(),
  ...expiryFields,
  indexable: indexableSchema.optional(),
  access: dropAccessSchema.optional(),
  comments: createCommentPolicySchema,
});

export const replaceDropBodySchema = z.strictObject({
  html: htmlSchema,
  title: titleSchema.optional(),
  description: descriptionSchema.optional(),
  context: contextSchema.optional(),
  metadata: metadataSchema.optional(),
  ...expiryFields,
  resolves: resolvesSchema.optional(),
  access: dropAccessSchema.optional(),
});

export const patchDropBodySchema = z.strictObject({
  title: titleSchema.optional(),
  description: descriptionSchema.optional(),
  metadata: metadataSchema.optional(),
  ...expiryFields,
  comments: commentPolicySchema.optional(),
  indexable: indexableSchema.optional(),
  access: dropAccessSchema.optional(),
});

export const setPasscodeBodySchema = z.strictObject({
  passcode: passcodeSchema,
});

export type CreateDropInput = z.output<typeof createDropBodySchema>;
export type ReplaceDropInput = z.output<typeof replaceDropBodySchema>;
export type PatchDropInput = z.output<typeof patchDropBodySchema>;

export const SORT_FIELDS = ["created_at", "updated_at", "view_count"] as const;
export const SORT_ORDERS = ["asc", "desc"] as const;

export { pageSchema, pageSizeSchema, versionNumberSchema };
export const sortBySchema = z.enum(SORT_FIELDS).default("created_at").describe("Sort field.");
export const sortOrderSchema = z.enum(SORT_ORDERS).default("desc").describe("Sort direction.");

export const metadataFilterSchema = z
  .array(z.tuple([z.string(), z.string()]), { error: "filter with metadata.<key>=<value>, one parameter per key" })
  .transform((pairs, ctx) => {
    const filters: [string, string][] = [];
    for (const [key, value] of pairs) {
      // Issues are named after the query parameter (metadata.<key>), as the caller wrote it.
      const parsedKey = metadataKeySchema.safeParse(key);
      const parsedValue = metadataValueSchema.safeParse(value);
      for (const issue of [...(parsedKey.error?.issues ?? []), ...(parsedValue.error?.issues ?? [])]) {
        ctx.addIssue({ code: "custom", message: issue.message, path: [key], input: value });
      }
      if (parsedKey.success && parsedValue.success) filters.push([parsedKey.data, parsedValue.data]);
    }
    return filters;
  })
  .describe("metadata.<key>=<value> (or metadata[<key>]=<value>) pairs; a drop matches only when it carries every pair (AND).");

/** The list filter as one object parameter: what OpenAPI's deepObject style and MCP's list_drops carry. */
export const metadataFilterMapSchema = z
  .record(metadataKeySchema, metadataValueSchema)
  .describe("Filter by owner tags: a drop matches only when it carries every given key/value pair (AND). Keys are case-insensitive.");

export const expiredFilterSchema = z
  .preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean({ error: "expired must be true or false" }))
  .optional()
  .describe("true lists only drops past their expiry, false only drops that are not (no expiry, or a later one); absent lists both.");

export const listDropsQuerySchema = z.strictObject({
  page: pageSchema,
  pageSize: pageSizeSchema,
  sortBy: sortBySchema,
  sortOrder: sortOrderSchema,
  metadata: metadataFilterSchema,
  expired: expiredFilterSchema,
  shared: z
    .preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean({ error: "shared must be true or false" }))
    .optional()
    .describe("true (addition) lists the drops other accounts shared with the caller (as a person or through a team) instead of the caller's own."),
});

export type ListDropsQuery = z.output<typeof listDropsQuerySchema>;

/** The dashboard's title search, matched against stored titles. */
export const titleSearchSchema = z.string().refine(hasNoNul, nulMessage("the title search"));

// `metadata[<key>]`: OpenAPI's deepObject style, the form generated clients send for an object parameter.
const DEEP_OBJECT_METADATA = /^metadata\[(.*)\]$/s;

/**
 * Turns URL query parameters into the input of listDropsQuerySchema. Filters come as `metadata.<key>`
 * (the spec's form) or `metadata[<key>]`, mixed freely and repeatable: each is one pair that must match,
 * so a key given twice with different values matches nothing. A bare `metadata=` stays a string, which
 * the schema refuses: ignoring it would list every drop, and the lookup-then-mutate recipe would then
 * overwrite whichever came first.
 */
export function listQueryInput(params: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const metadata: [string, string][] = [];
  for (const [name, value] of params) {
    const deepObjectKey = DEEP_OBJECT_METADATA.exec(name)?.[1];
    if (name.startsWith("metadata.")) metadata.push([name.slice("metadata.".length), value]);
    else if (deepObjectKey !== undefined) metadata.push([deepObjectKey, value]);
    else input[name] = value;
  }
  return { ...input, metadata: input.metadata ?? metadata };
}

export const dropSchema = z
  .object({
    slug: slugSchema,
    title: z.string(),
    description: z.string().optional().describe("Absent when the drop has none."),
    url: z.url().describe("Public viewer address; stable across versions."),
    raw_url: z.url().describe("Raw HTML address; add ?v=N for a pinned version."),
    locked: z.boolean().describe("True exactly when a passcode is set."),
    latest_version: z.number().int().min(1).describe("Number of the head version."),
    view_count: z.number().int().min(0),
    metadata: z.record(z.string(), z.string()).describe("Owner-only tags."),
    created_at: unixMillisSchema,
    updated_at: unixMillisSchema,
    expires_at: unixMillisSchema.optional().describe("Present only when an expiry is set: when the link stops working."),
    expired: z.boolean().optional().describe("Present only when an expiry is set: true once it has passed (the viewer and raw answer 410 Gone)."),
    comments: z.enum(COMMENT_POLICIES).exclude(["off"]).optional().describe('Present only when comments are on: who may comment ("signed_in" or "anyone").'),
    indexable: z.literal(true).optional().describe("Present only when the owner lets search engines index the drop."),
    access: z.enum(DROP_ACCESS_LEVELS).exclude(["public"]).optional().describe('Present only when the drop is not public: "signed_in" or "restricted".'),
  })
  .describe("Drop");

export const paginationSchema = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total_items: z.number().int(),
  total_pages: z.number().int(),
  sort_by: z.enum(SORT_FIELDS),
  sort_order: z.enum(SORT_ORDERS),
});

export const dropListSchema = z.object({ data: z.array(dropSchema), pagination: paginationSchema });

export const versionListItemSchema = z.object({
  version: z.number().int().min(1),
  size_bytes: z.number().int(),
  has_context: z.boolean(),
  created_at: unixMillisSchema,
});

export const versionSchema = z.object({
  slug: slugSchema,
  version: z.number().int().min(1),
  size_bytes: z.number().int(),
  context: z.string().nullable(),
  created_at: unixMillisSchema,
  is_latest: z.boolean(),
});

export const STATS_DAYS_MAX = 365;
export const STATS_DAYS_DEFAULT = 30;

export const statsDaysSchema = positiveIntegerSchema({ max: STATS_DAYS_MAX, default: STATS_DAYS_DEFAULT }).describe(
  `Days to report, ending today (UTC), 1 to ${STATS_DAYS_MAX}.`,
);

export const dropStatsQuerySchema = z.strictObject({ days: statsDaysSchema });

/** The two versions a diff compares, as query parameters (REST) or arguments (MCP). */
export const diffQuerySchema = z.strictObject({
  from: versionNumberSchema.describe("The older side of the diff: a version number, from 1."),
  to: versionNumberSchema.describe("The newer side of the diff: a version number, from 1."),
});

export const versionDiffSchema = z
  .object({
    slug: slugSchema,
    from: z.number().int().min(1),
    to: z.number().int().min(1),
    added_lines: z.number().int().min(0).describe("Lines only in `to`."),
    removed_lines: z.number().int().min(0).describe("Lines only in `from`."),
    diff: z.string().describe("Unified diff of the two versions' HTML, files named v<from>/index.html and v<to>/index.html; empty when they are the same."),
  })
  .describe("VersionDiff");

const utcDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe("A UTC day, YYYY-MM-DD.");

export const dropStatsSchema = z
  .object({
    slug: slugSchema,
    days: z.number().int().min(1).max(STATS_DAYS_MAX),
    from: utcDateSchema.describe("First day reported (UTC)."),
    to: utcDateSchema.describe("Last day reported: today (UTC)."),
    total_views: z.number().int().min(0).describe("Views counted in these days."),
    view_count: z.number().int().min(0).describe("All views ever counted, as in the Drop (it includes views from before per-day counting)."),
    daily: z.array(z.object({ date: utcDateSchema, views: z.number().int().min(0) })).describe("Every day from `from` to `to`, oldest first, days without views included."),
    versions: z
      .array(z.object({ version: z.number().int().min(1), views: z.number().int().min(1) }))
      .describe("Views per version in these days, by version number; versions without views are left out, deleted versions keep their views."),
  })
  .describe("DropStats");

/** What GET /api/cron/purge-expired answers (lib/drops/purge-expired.ts returns it). */
export const purgeResultSchema = z
  .object({
    purged: z.number().int().min(0).describe("Drops deleted by this run, with their versions."),
    cutoff: unixMillisSchema.describe("Drops whose expiry is at or before this moment were deleted: now minus EXPIRED_RETENTION_DAYS, as Unix time in milliseconds."),
  })
  .describe("PurgeResult");

/** Header of POST /api/drops: a repeat within 24 hours replays the first response. */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, "1 to 255 visible ASCII characters")
  .describe("Optional; 1 to 255 visible ASCII characters.");

/** Header of PUT: the quoted latest_version an edit is based on (a bare number is accepted too). */
export const ifMatchSchema = z
  .string()
  .regex(/^\s*(?:"0*[1-9]\d{0,8}"|0*[1-9]\d{0,8})\s*$/, 'expected a quoted version number, like "3"')
  .describe('The quoted latest_version this edit is based on, like "3".');


export type DropJson = z.infer<typeof dropSchema>;
export type DropListJson = z.infer<typeof dropListSchema>;
export type VersionListItemJson = z.infer<typeof versionListItemSchema>;
export type VersionJson = z.infer<typeof versionSchema>;
export type DropStatsJson = z.infer<typeof dropStatsSchema>;
export type PurgeResultJson = z.infer<typeof purgeResultSchema>;

/** PATCH never takes html: say so with the spec's own code rather than as an unknown field. */
export function parsePatchDropBody(input: unknown): PatchDropInput {
  if (input !== null && typeof input === "object" && !Array.isArray(input) && "html" in input) {
    throw new ApiError("metadata_only_on_patch", "PATCH changes title, description, metadata, expiry, comments, indexable and access only; send html with PUT to create a new version.");
  }
  return parseInput(patchDropBodySchema, input);
}
