import { randomString } from "@/lib/security/random";

/**
 * Consonants only (RFC 8628 §6.1): no digits to confuse with letters (0/O, 1/I/L, 5/S) and no vowels,
 * so codes never spell words. 20^8 ≈ 2.6·10^10 codes; approvals are rate limited per client.
 */
const CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const CODE_LENGTH = 8;

export function newUserCode(): string {
  const raw = randomString(CODE_LENGTH, CODE_ALPHABET);
  return `${raw.slice(0, 4)}-${raw.slice(4)}`;
}

/** What a human types: any case, with or without the dash or spaces. Null when it cannot be a code. */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, "");
  if (letters.length !== CODE_LENGTH || [...letters].some((letter) => !CODE_ALPHABET.includes(letter))) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}
