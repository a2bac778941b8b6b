// The unsubscribe link of every notification email (issue 33): the account's id and an HMAC of it with
// the server's secret, so it works without signing in and nothing is stored to look it up.
import { createHmac } from "node:crypto";
import { constantTimeEqual } from "@/lib/security/tokens";

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;

function signature(secret: string, userId: string): string {
  return createHmac("sha256", secret).update(`htmldrop unsubscribe ${userId}`).digest("base64url");
}

export function signUnsubscribeToken(secret: string, userId: string): string {
  return `${userId}.${signature(secret, userId)}`;
}

/** The account a token names, or null when it was not signed with `secret`. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const dot = token.lastIndexOf(".");
  const userId = token.slice(0, dot);
  if (dot < 1 || !ACCOUNT_ID.test(userId)) return null;
  return constantTimeEqual(token.slice(dot + 1), signature(secret, userId)) ? userId : null;
}
