import { formatStoredScopes, SCOPES, type Scope } from "@/lib/accounts/scopes";
import { getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { db, isUniqueViolation } from "@/lib/db";
import { assertRateLimit } from "@/lib/ratelimit";
import type { StartDeviceAuthJson } from "@/lib/schemas/device-auth";
import { newId, randomString } from "@/lib/security/random";
import { hashSecret } from "@/lib/security/tokens";
import { newUserCode } from "./codes";
import { purgeStaleDeviceAuths } from "./purge";

const POLL_TOKEN_LENGTH = 43;

/** Opens a flow: a short code for the human, a long poll secret for the agent (only its HMAC is stored). */
export async function startDeviceAuth(input: { label: string | null; scopes?: readonly Scope[]; clientKey: string }): Promise<StartDeviceAuthJson> {
  await assertRateLimit("deviceAuthStarts", input.clientKey);
  const { publicUrl, limits } = getConfig();
  const at = now();
  await purgeStaleDeviceAuths(at);
  const pollToken = randomString(POLL_TOKEN_LENGTH);
  for (;;) {
    const code = newUserCode();
    try {
      await db().deviceAuth.create({
        data: {
          id: newId(),
          code,
          pollTokenHash: hashSecret(pollToken),
          label: input.label,
          scopes: formatStoredScopes(input.scopes ?? SCOPES),
          status: "pending",
          clientKey: input.clientKey,
          createdAt: new Date(at),
          expiresAt: new Date(at + limits.deviceCodeTtlSeconds * 1000),
        },
      });
    } catch (error) {
      // Codes are unique among stored flows; on the rare clash, draw another.
      if (isUniqueViolation(error)) continue;
      throw error;
    }
    return {
      code,
      verification_url: `${publicUrl}/verify?code=${encodeURIComponent(code)}`,
      poll_token: pollToken,
      expires_in: limits.deviceCodeTtlSeconds,
      poll_interval: limits.pollIntervalSeconds,
    };
  }
}
