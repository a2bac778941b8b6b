import { z } from "zod";
import { charLength, hasNoNul, nulMessage, pageSchema, pageSizeSchema, positiveIntegerSchema, unixMillisSchema, versionNumberSchema } from "./common";
import { commentAnchorSchema } from "./comment-anchor";
import { hasNoControlCharacters } from "./text";

export const COMMENT_POLICIES = ["off", "signed_in", "anyone"] as const;
export type CommentPolicy = (typeof COMMENT_POLICIES)[number];

export const COMMENT_LIMITS = { bodyMaxChars: 4000, quoteMaxChars: 4000, quoteMaxLines: 20, nameMaxChars: 60, resolvesMax: 50 } as const;

export const commentPolicySchema = z
  .enum(COMMENT_POLICIES, { error: `comments must be one of ${COMMENT_POLICIES.join(", ")}` })
  .describe(
    'Who may comment on the viewer page: "off" (nobody), "signed_in" (accounts) or "anyone" (guests too, under a name). ' +
      "A locked drop's comments are only for viewers who unlocked it.",
  );

/** On create: left out, the account's default, which is "off" until its owner picks another on the dashboard's account page. */
export const createCommentPolicySchema = commentPolicySchema
  .optional()
  .describe(
    'Who may comment on the viewer page (addition): "off", "signed_in" (accounts) or "anyone" (guests too, under a name). ' +
      'Left out: the account\'s default, which is "off" (the drop takes no comments) unless its owner chose another on the dashboard\'s account page.',
  );

/** Text, not markup: shown escaped everywhere. Control characters other than line breaks and tabs are refused. */
function plainText(subject: string, maxChars: number) {
  return z
    .string({ error: `${subject} must be a string` })
    .refine((text) => text.trim().length > 0, `${subject} must not be empty`)
    .refine((text) => charLength(text) <= maxChars, `${subject} is at most ${maxChars} characters`)
    .refine(hasNoNul, nulMessage(subject))
    .refine(hasNoControlCharacters, `${subject} must not contain control characters`);
}

export const commentTextSchema = plainText("body", COMMENT_LIMITS.bodyMaxChars).describe(`The comment, plain text, at most ${COMMENT_LIMITS.bodyMaxChars} characters.`);

export const quoteSchema = plainText("quote", COMMENT_LIMITS.quoteMaxChars)
  .refine((quote) => quote.split("\n").length <= COMMENT_LIMITS.quoteMaxLines, `quote is at most ${COMMENT_LIMITS.quoteMaxLines} lines`)
  .describe(`The passage the comment is about, plain text, at most ${COMMENT_LIMITS.quoteMaxLines} lines.`);

export const guestNameSchema = plainText("name", COMMENT_LIMITS.nameMaxChars)
  .refine((name) => !/[\r\n\t]/.test(name), "name must be one line")
  .describe(`A guest's display name, at most ${COMMENT_LIMITS.nameMaxChars} characters.`);

export const commentIdSchema = z
  .string({ error: "comment ids are strings" })
  .regex(/^[0-9A-Za-z]{20}$/, "a comment id is 20 letters and digits")
  .describe("A comment's id.");

export const AUTHOR_KINDS = ["owner", "account", "guest"] as const;

export const commentSchema = z
  .object({
    id: commentIdSchema,
    version: z.number().int().min(1).describe("The version the comment was made on."),
    body: z.string(),
    quote: z.string().optional().describe("Absent when the comment quotes nothing."),
    anchor: commentAnchorSchema.optional().describe("The passage the comment is anchored to, exactly as it was sent; absent when it has none."),
    author: z
      .object({
        name: z.string(),
        kind: z.enum(AUTHOR_KINDS).describe('"owner" (shown with a badge), "account" (signed in) or "guest" (a name, unverified).'),
      })
      .describe("Who wrote it."),
    created_at: unixMillisSchema,
    resolved_at: unixMillisSchema.optional().describe("Absent while the comment is open."),
    reply_to: commentIdSchema.optional().describe("The comment this one answers, if any."),
    cursor: z
      .number()
      .int()
      .optional()
      .describe("Addition: the id of the comment.created event, growing with every comment: to poll exactly, send after=<the largest cursor you have>. Absent on comments older than events."),
  })
  .describe("Comment");

export const COMMENT_STATUSES = ["open", "resolved", "all"] as const;

export const listCommentsQuerySchema = z.strictObject({
  status: z.enum(COMMENT_STATUSES, { error: "status must be open, resolved or all" }).default("all").describe("open: not resolved and not the owner's own (what waits for an answer); resolved; all (the default)."),
  since: z
    .preprocess((value) => (typeof value === "string" && /^[0-9]{1,15}$/.test(value) ? Number(value) : value), unixMillisSchema.min(0))
    .optional()
    .describe("Only comments created after this Unix ms time: to poll, the newest created_at you have."),
  after: z
    .preprocess((value) => (typeof value === "string" && /^[0-9]{1,10}$/.test(value) ? Number(value) : value), z.number().int().min(0).max(2_147_483_647))
    .optional()
    .describe("Addition: only comments whose cursor is greater, ordered by cursor. Exact where since can miss a comment committed late in the same millisecond."),
  version: versionNumberSchema.optional().describe("Only comments made on this version."),
  page: pageSchema,
  pageSize: pageSizeSchema,
});

export const commentListSchema = z.object({
  data: z.array(commentSchema).describe("Oldest first."),
  pagination: z.object({ page: z.number().int(), page_size: z.number().int(), total_items: z.number().int(), total_pages: z.number().int() }),
});

export const createCommentBodySchema = z.strictObject({
  body: commentTextSchema,
  quote: quoteSchema.optional(),
  anchor: commentAnchorSchema.optional(),
  reply_to: commentIdSchema.describe("The comment this one answers.").optional(),
  version: positiveIntegerSchema().optional().describe("The version the comment is about; default the latest (or, for a reply, the version of the comment it answers)."),
});

export const patchCommentBodySchema = z.strictObject({
  resolved: z.boolean({ error: "resolved must be true or false" }).describe("true resolves the comment, false opens it again."),
});

export const resolvesSchema = z
  .array(commentIdSchema)
  .max(COMMENT_LIMITS.resolvesMax, `resolves lists at most ${COMMENT_LIMITS.resolvesMax} comments`)
  .describe("Ids of comments this version addresses; each is resolved with a reply naming the new version.");

/**
 * What the viewer's comment form posts (app/p/[slug]/comments): the version shown, and a name for guests.
 * An anchor comes only with the page's script (JSON): it is the passage the person selected in the drop.
 */
export const viewerCommentFormSchema = z.object({
  body: commentTextSchema,
  quote: z.preprocess((value) => (value === "" ? undefined : value), quoteSchema.optional()),
  anchor: commentAnchorSchema.optional(),
  name: z.preprocess((value) => (value === "" ? undefined : value), guestNameSchema.optional()),
  v: versionNumberSchema,
  reply_to: z.preprocess((value) => (value === "" ? undefined : value), commentIdSchema.optional()),
});

export type CommentJson = z.infer<typeof commentSchema>;
export type CommentListJson = z.infer<typeof commentListSchema>;
export type ListCommentsQuery = z.output<typeof listCommentsQuerySchema>;
export type CreateCommentInput = z.output<typeof createCommentBodySchema>;
export type ViewerCommentForm = z.output<typeof viewerCommentFormSchema>;
