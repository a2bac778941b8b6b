import { z } from "zod";
import { SPEC_LIMITS } from "@/lib/config";
import { requestedScopesSchema, tokenLabelSchema } from "./accounts";

export const startDeviceAuthBodySchema = z
  .object({
    label: tokenLabelSchema
      .nullish()
      .describe("Names the machine or agent; shown to the human on /verify and kept as the token's label."),
    scopes: requestedScopesSchema
      .optional()
      .describe("The scopes to ask for; the human sees them on /verify and the token gets exactly these. Default: every scope."),
  })
  .strict();

export const pollDeviceAuthQuerySchema = z.object({
  token: z.string({ error: "token is required" }).min(1, "token is required").describe("The poll_token returned by POST /api/auth/start."),
});

export const startDeviceAuthResponseSchema = z.object({
  code: z.string().describe("Short code the human compares on the verification page, like BCDF-GHJK."),
  verification_url: z.url().describe("Page under /verify, carrying the code, that the human opens to sign in and approve."),
  poll_token: z.string().describe("Secret for GET /api/auth/poll; keep it private."),
  expires_in: z.number().int().describe(`Seconds the code stays valid (${SPEC_LIMITS.deviceCodeTtlSeconds}).`),
  poll_interval: z.number().int().describe(`Seconds to wait between polls (${SPEC_LIMITS.pollIntervalSeconds}).`),
});

// `denied` is an addition to the spec's four states: the human pressed Deny (RFC 8628's access_denied).
export const deviceAuthStatusSchema = z.enum(["pending", "verified", "claimed", "expired", "denied"]);

export const pollDeviceAuthResponseSchema = z.object({
  status: deviceAuthStatusSchema.describe(
    "pending: keep polling; verified: api_token and user_id are in this response, the only time they are shown; claimed: already handed out; expired: start again; denied: the human refused on /verify, stop and do not retry unasked.",
  ),
  api_token: z.string().optional().describe("The new API token, present only on the first verified read."),
  user_id: z.string().optional().describe("The account the token belongs to, present only on the first verified read."),
});

export type StartDeviceAuthBody = z.infer<typeof startDeviceAuthBodySchema>;
export type StartDeviceAuthJson = z.infer<typeof startDeviceAuthResponseSchema>;
export type PollDeviceAuthJson = z.infer<typeof pollDeviceAuthResponseSchema>;
export type DeviceAuthStatus = z.infer<typeof deviceAuthStatusSchema>;
