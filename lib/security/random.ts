import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SLUG_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Uniform random string over an alphabet: bytes that would bias the modulo are rejected. */
export function randomString(length: number, alphabet: string = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(): string {
  return randomString(20);
}

/** 12 characters of [0-9a-z]: about 62 bits, unguessable enough for public links. */
export function newSlug(): string {
  return randomString(12, SLUG_ALPHABET);
}
