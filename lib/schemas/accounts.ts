import { z } from "zod";
// Up a floor, deliberately: the scope vocabulary, which imports nothing, lives with the accounts it governs.
import { SCOPES, SCOPE_DESCRIPTIONS } from "@/lib/accounts/scopes";
import { hasNoNul, nulMessage, slugSchema, unixMillisSchema } from "./common";

export const TOKEN_ID_PATTERN = /^[0-9a-f]{12}$/;
export const tokenIdSchema = z.string().regex(TOKEN_ID_PATTERN).describe("12 hexadecimal characters: the start of the token's hash.");

const TOKEN_LABEL_MAX_CHARS = 100;
/** A token limited to drops names at most this many. */
export const TOKEN_DROPS_MAX = 100;
/** The last millisecond of year 9999: the latest time both databases and ISO strings can hold. */
const LATEST_EXPIRY_MS = 253_402_300_799_999;

/** A token's label, from the device flow or `npm run admin -- token create --label`. */
export const tokenLabelSchema = z
  .string()
  .trim()
  .min(1, "label must not be empty")
  .max(TOKEN_LABEL_MAX_CHARS, `label is at most ${TOKEN_LABEL_MAX_CHARS} characters`)
  .refine(hasNoNul, nulMessage("label"));

export const scopeSchema = z
  .enum(SCOPES)
  .describe(`A permission of a credential: ${SCOPES.map((scope) => `\`${scope}\` (${SCOPE_DESCRIPTIONS[scope].toLowerCase()})`).join(", ")}.`);

/** Requested scopes: at least one; duplicates are harmless. */
export const requestedScopesSchema = z.array(scopeSchema).min(1, "scopes must name at least one scope").max(SCOPES.length * 4, "scopes lists too many entries");

const tokenScopesSchema = z.array(scopeSchema).describe("What the token may do. Tokens issued without scopes have all three.");
const tokenDropsSchema = z.array(slugSchema).nullable().describe("The only drops the token may touch; null: every drop of the account.");
const tokenExpiresAtSchema = unixMillisSchema.nullable().describe("Unix milliseconds when the token stops working; null: never.");

export const tokenSummarySchema = z.object({
  id: tokenIdSchema,
  label: z.string().nullable(),
  created_at: unixMillisSchema,
  last_used_at: unixMillisSchema.nullable(),
  scopes: tokenScopesSchema,
  drops: tokenDropsSchema,
  expires_at: tokenExpiresAtSchema,
});

export const tokenListItemSchema = tokenSummarySchema.extend({
  revoked_at: unixMillisSchema.nullable().describe("Set once the token is revoked; revoked tokens stay listed."),
  kind: z
    .enum(["api_token", "oauth"])
    .describe("`api_token` for a token from the device flow, the admin command or POST /api/tokens; `oauth` for an app connected through OAuth (label = the app's own name)."),
  client_id: z.string().optional().describe("OAuth grants only: the connected app's client id (a URL for apps that publish a Client ID Metadata Document)."),
  minted_by: tokenIdSchema
    .optional()
    .describe("The id of the token or connected app that created this token with POST /api/tokens. Revoking that one revoked, or will revoke, this one."),
});

export const meSchema = z.object({
  user_id: z.string(),
  created_at: unixMillisSchema.nullable(),
  drop_count: z.number().int(),
  token: tokenSummarySchema.nullable(),
});

export const createTokenBodySchema = z
  .object({
    label: tokenLabelSchema.nullish().describe("Names the token in the token list."),
    scopes: requestedScopesSchema
      .optional()
      .describe("Scopes of the new token, each one the calling token has. Default: the calling token's scopes."),
    drops: z
      .array(slugSchema)
      .min(1, "drops must name at least one drop; omit it or send null for every drop")
      .max(TOKEN_DROPS_MAX, `drops names at most ${TOKEN_DROPS_MAX} drops`)
      .nullish()
      .describe(
        "Limit the new token to these drops of your account (slugs). null: every drop, only for a calling token that has every drop. Default: the calling token's drops.",
      ),
    expires_at: unixMillisSchema
      .max(LATEST_EXPIRY_MS, "expires_at is too far in the future")
      .nullish()
      .describe("Unix milliseconds when the new token stops working, in the future and not after the calling token's own expiry. null: never, only for a calling token that never expires. Default: the calling token's expiry."),
  })
  .strict();

export const createdTokenSchema = z.object({
  token: z.string().describe("The new API token in plaintext. Shown only in this response: store it now."),
  id: tokenIdSchema,
  label: z.string().nullable(),
  scopes: tokenScopesSchema,
  drops: tokenDropsSchema,
  expires_at: tokenExpiresAtSchema,
  created_at: unixMillisSchema,
});

export type TokenSummaryJson = z.infer<typeof tokenSummarySchema>;
export type TokenListItemJson = z.infer<typeof tokenListItemSchema>;
export type MeJson = z.infer<typeof meSchema>;
export type CreateTokenBody = z.infer<typeof createTokenBodySchema>;
export type CreatedTokenJson = z.infer<typeof createdTokenSchema>;

/** Usernames of the local sign-in: the same rule as `npm run admin -- token create --login`. */
export const LOCAL_LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}$/;
/** The rule above in plain words, shown next to the local sign-in's username field. */
export const LOCAL_LOGIN_RULE = "1 to 39 characters: letters, digits, dots, dashes and underscores, starting with a letter or digit. Not case-sensitive.";
export const localLoginSchema = z.string().trim().regex(LOCAL_LOGIN_PATTERN, LOCAL_LOGIN_RULE);
