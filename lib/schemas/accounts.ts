import { z } from "zod";
import { hasNoNul, nulMessage, unixMillisSchema } from "./common";

export const TOKEN_ID_PATTERN = /^[0-9a-f]{12}$/;
export const tokenIdSchema = z.string().regex(TOKEN_ID_PATTERN).describe("12 hexadecimal characters: the start of the token's hash.");

const TOKEN_LABEL_MAX_CHARS = 100;

/** A token's label, from the device flow or `npm run admin -- token create --label`. */
export const tokenLabelSchema = z
  .string()
  .trim()
  .min(1, "label must not be empty")
  .max(TOKEN_LABEL_MAX_CHARS, `label is at most ${TOKEN_LABEL_MAX_CHARS} characters`)
  .refine(hasNoNul, nulMessage("label"));

export const tokenSummarySchema = z.object({
  id: tokenIdSchema,
  label: z.string().nullable(),
  created_at: unixMillisSchema,
  last_used_at: unixMillisSchema.nullable(),
});

export const tokenListItemSchema = tokenSummarySchema.extend({
  revoked_at: unixMillisSchema.nullable().describe("Set once the token is revoked; revoked tokens stay listed."),
});

export const meSchema = z.object({
  user_id: z.string(),
  created_at: unixMillisSchema.nullable(),
  drop_count: z.number().int(),
  token: tokenSummarySchema.nullable(),
});

export type TokenSummaryJson = z.infer<typeof tokenSummarySchema>;
export type TokenListItemJson = z.infer<typeof tokenListItemSchema>;
export type MeJson = z.infer<typeof meSchema>;
