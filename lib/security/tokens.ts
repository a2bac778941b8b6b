import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig, TOKEN_PREFIX_PATTERN } from "@/lib/config";
import { randomString } from "./random";

const TOKEN_SECRET_LENGTH = 40;
const TOKEN_SECRET_PATTERN = /^[0-9A-Za-z]{40}$/;

/** A new API token, `<TOKEN_PREFIX>_` + 40 base62 characters (about 238 bits), and its secret part. */
export function mintToken(): { token: string; secret: string } {
  const secret = randomString(TOKEN_SECRET_LENGTH);
  return { token: `${getConfig().tokenPrefix}_${secret}`, secret };
}

/** The secret part of a well-formed token (`<prefix>_<40 base62>`, any prefix TOKEN_PREFIX could be), or null. */
export function tokenSecret(token: string): string | null {
  const separator = token.indexOf("_");
  if (separator <= 0) return null;
  const secret = token.slice(separator + 1);
  return TOKEN_PREFIX_PATTERN.test(token.slice(0, separator)) && TOKEN_SECRET_PATTERN.test(secret) ? secret : null;
}

/**
 * The stored hashes a presented token can match. Tokens are stored by the hash of their secret alone, so
 * the prefix can change; rows written before that hashed the whole token and match only under the prefix
 * they were minted with.
 */
export function storedTokenHashes(token: string, secret: string): readonly string[] {
  const pepper = getConfig().tokenPepper;
  const kept = presentedHashes.get(token);
  if (kept?.pepper === pepper) return kept.hashes;
  if (presentedHashes.size >= PRESENTED_TOKENS_KEPT) presentedHashes.clear();
  const hashes = Object.freeze([hashSecret(secret), hashSecret(token)]);
  presentedHashes.set(token, { pepper, hashes });
  return hashes;
}

/**
 * The stored hashes of tokens presented lately, by token: every authenticated request needs two HMACs,
 * and an agent presents the same token request after request. Bounded (emptied when full), in memory only.
 */
const PRESENTED_TOKENS_KEPT = 1024;
const presentedHashes = new Map<string, { pepper: string; hashes: readonly string[] }>();

/** Only this keyed hash is stored; the pepper keeps a leaked table from being checked offline. */
export function hashSecret(secret: string): string {
  return createHmac("sha256", getConfig().tokenPepper).update(secret).digest("hex");
}

export function tokenIdFromHash(hash: string): string {
  return hash.slice(0, 12);
}

/** The credential of an `Authorization: Bearer <credential>` header, if it is one. */
export function bearerCredential(authorization: string | null): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization?.trim() ?? "")?.[1];
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
