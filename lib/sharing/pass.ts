// A viewer's pass: the raw URL a non-public drop's viewer frames carries it, because the raw endpoint
// may live on CONTENT_ORIGIN, where the session cookie is never sent. It names the account, not a
// right: the raw path still asks the drop's list, so a removal ends it on the next request.
import { createHmac } from "node:crypto";
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { constantTimeEqual } from "@/lib/security/tokens";

/** Long enough for a reading session's frame and "Open full page"; the viewer page mints a new one each time. */
export const VIEWER_PASS_TTL_MS = 3_600_000;

function signature(slug: string, accountId: string, expiresAt: number): string {
  return createHmac("sha256", getConfig().authSecret).update(`htmldrop-pass\n${slug}\n${accountId}\n${expiresAt}`).digest("base64url");
}

export function createViewerPass(slug: string, accountId: string): string {
  const expiresAt = now() + VIEWER_PASS_TTL_MS;
  return `${accountId}.${expiresAt}.${signature(slug, accountId, expiresAt)}`;
}

/** The account a valid, unexpired pass for this drop names, or null. */
export function verifyViewerPass(slug: string, pass: string): string | null {
  const match = /^([A-Za-z0-9_-]{1,64})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(pass);
  if (!match) return null;
  const [, accountId, expiry, presented] = match as unknown as [string, string, string, string];
  const expiresAt = Number(expiry);
  if (expiresAt <= now()) return null;
  return constantTimeEqual(presented, signature(slug, accountId, expiresAt)) ? accountId : null;
}
