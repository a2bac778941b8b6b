import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { getConfig } from "@/lib/config";

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

// scrypt's N is the configuration's (PASSCODE_SCRYPT_LOG2_N in lib/config.ts); r = 8 and p = 1. A hash
// up to N = 2^15 fits in maxmem.
const PARAMS = { r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** Encoded as scrypt$N$r$p$salt$key, so parameters can be raised later without breaking old hashes. */
export async function hashPasscode(passcode: string): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** getConfig().passcodeScryptLog2N;
  const key = await scrypt(passcode.normalize("NFC"), salt, KEY_LENGTH, { ...PARAMS, N });
  return ["scrypt", N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPasscode(passcode: string, encoded: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = encoded.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await scrypt(passcode.normalize("NFC"), Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(actual, expected);
}
