import { z } from "zod";
import { deliveryIdSchema, patchWebhookBodySchema, webhookIdSchema } from "./webhooks";
import { SLUG_PATTERN, slugSchema } from "./common";
import {
  createDropBodySchema,
  diffQuerySchema,
  dropStatsQuerySchema,
  expiredFilterSchema,
  listDropsQuerySchema,
  metadataFilterMapSchema,
  pageSchema,
  pageSizeSchema,
  patchDropBodySchema,
  replaceDropBodySchema,
  setPasscodeBodySchema,
  sortBySchema,
  sortOrderSchema,
  versionListItemSchema,
  versionNumberSchema,
} from "./drops";
import { errorBodySchema } from "./errors";
import { commentIdSchema, createCommentBodySchema, listCommentsQuerySchema, patchCommentBodySchema } from "./comments";
import { patternNameSchema, savePatternBodySchema } from "./patterns";
import { createTeamBodySchema, dropMemberFields, exactlyOne, memberIdSchema, memberRoleSchema, teamIdSchema, teamMemberFields } from "./sharing";

/**
 * MCP tool arguments and results, composed from the REST field schemas. A malformed slug is left to
 * the drop services (as on REST) so it fails with invalid_slug; the pattern is still advertised.
 */
export const slugArgSchema = z.string().describe(slugSchema.description ?? "").meta({ pattern: SLUG_PATTERN.source });

export const noArgsSchema = z.strictObject({});

export const dropRefArgsSchema = z.strictObject({ slug: slugArgSchema });

export const versionRefArgsSchema = z.strictObject({ slug: slugArgSchema, version: versionNumberSchema });

export const createDropArgsSchema = createDropBodySchema;

export const updateDropArgsSchema = z.strictObject({ slug: slugArgSchema, ...replaceDropBodySchema.shape });

export const patchDropArgsSchema = z.strictObject({ slug: slugArgSchema, ...patchDropBodySchema.shape });

export const setPasscodeArgsSchema = z.strictObject({ slug: slugArgSchema, ...setPasscodeBodySchema.shape });

export const listDropsArgsSchema = z.strictObject({
  page: pageSchema,
  page_size: pageSizeSchema,
  sort_by: sortBySchema,
  sort_order: sortOrderSchema,
  metadata: metadataFilterMapSchema.optional(),
  expired: expiredFilterSchema,
  shared: listDropsQuerySchema.shape.shared,
});

export const diffVersionsArgsSchema = z.strictObject({ slug: slugArgSchema, ...diffQuerySchema.shape });

export const dropStatsArgsSchema = z.strictObject({ slug: slugArgSchema, ...dropStatsQuerySchema.shape });

export const listCommentsArgsSchema = z.strictObject({
  slug: slugArgSchema,
  status: listCommentsQuerySchema.shape.status,
  since: listCommentsQuerySchema.shape.since,
  after: listCommentsQuerySchema.shape.after,
  version: listCommentsQuerySchema.shape.version,
  page: pageSchema,
  page_size: pageSizeSchema,
});

export const replyToCommentArgsSchema = z.strictObject({ slug: slugArgSchema, ...createCommentBodySchema.shape });

export const resolveCommentArgsSchema = z.strictObject({
  slug: slugArgSchema,
  id: commentIdSchema,
  resolved: patchCommentBodySchema.shape.resolved.default(true),
});

export const shareDropArgsSchema = z.strictObject({ slug: slugArgSchema, ...dropMemberFields }).superRefine(exactlyOne(["login", "email", "team_id"]));

export const memberRefArgsSchema = z.strictObject({ slug: slugArgSchema, id: memberIdSchema });

export const setMemberRoleArgsSchema = z.strictObject({ slug: slugArgSchema, id: memberIdSchema, role: memberRoleSchema });

export const teamRefArgsSchema = z.strictObject({ team_id: teamIdSchema });

export const createTeamArgsSchema = createTeamBodySchema;

export const addTeamMemberArgsSchema = z.strictObject({ team_id: teamIdSchema, ...teamMemberFields }).superRefine(exactlyOne(["login", "email"]));

export const removeTeamMemberArgsSchema = z.strictObject({ team_id: teamIdSchema, member_id: memberIdSchema });

export const webhookRefArgsSchema = z.strictObject({ webhook_id: webhookIdSchema });
export const updateWebhookArgsSchema = patchWebhookBodySchema.extend({ webhook_id: webhookIdSchema });
export const retryDeliveryArgsSchema = z.strictObject({ webhook_id: webhookIdSchema, delivery_id: deliveryIdSchema });
export const deletedWebhookResultSchema = z.object({ deleted: z.literal(true), id: webhookIdSchema });

export const versionListResultSchema = z.object({ versions: z.array(versionListItemSchema) });

export const deleteDropResultSchema = z.object({ deleted: z.literal(true), slug: slugSchema });

/**
 * A tool's advertised output: its REST result, or the REST Error object when isError is set.
 * MCP clients (the SDK's included) validate structuredContent against outputSchema even on errors.
 */
export function toolOutputSchema(result: z.ZodType) {
  return z.union([result, errorBodySchema]);
}

export type ListDropsArgs = z.output<typeof listDropsArgsSchema>;

export const patternRefArgsSchema = z.strictObject({ name: patternNameSchema });

export const savePatternArgsSchema = z.strictObject({ name: patternNameSchema, ...savePatternBodySchema.shape });
