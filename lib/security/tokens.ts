import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "@/lib/config";
import { randomString } from "./random";

const TOKEN_BODY_LENGTH = 40;

/** A new API token: `<prefix>_` + 40 base62 characters (about 238 bits). */
export function mintToken(): string {
  return `${getConfig().tokenPrefix}_${randomString(TOKEN_BODY_LENGTH)}`;
}

export function isWellFormedToken(token: string): boolean {
  const prefix = getConfig().tokenPrefix;
  return token.length === prefix.length + 1 + TOKEN_BODY_LENGTH && token.startsWith(`${prefix}_`) && /^[0-9A-Za-z]+$/.test(token.slice(prefix.length + 1));
}

/** Only this keyed hash is stored; the pepper keeps a leaked table from being checked offline. */
export function hashSecret(secret: string): string {
  return createHmac("sha256", getConfig().tokenPepper).update(secret).digest("hex");
}

export function tokenIdFromHash(hash: string): string {
  return hash.slice(0, 12);
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
