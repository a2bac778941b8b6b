// Passcode hashes: scrypt at the default cost (N = 2^15) unless a test server asks for less, and every
// stored hash checked at the cost it carries, so a cost changed later never locks out an older passcode.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { PASSCODE_SCRYPT_LOG2_N, reloadConfig } from "@/lib/config";
import { hashPasscode, verifyPasscode } from "@/lib/security/passcodes";

const dataDir = mkdtempSync(join(tmpdir(), "htmldrop-passcodes-"));
const saved = { DATA_DIR: process.env.DATA_DIR, HTMLDROP_TEST_PASSCODE_COST: process.env.HTMLDROP_TEST_PASSCODE_COST };

function configure(cost: string | undefined): void {
  process.env.DATA_DIR = dataDir;
  if (cost === undefined) delete process.env.HTMLDROP_TEST_PASSCODE_COST;
  else process.env.HTMLDROP_TEST_PASSCODE_COST = cost;
  reloadConfig();
}

beforeAll(() => configure(undefined));
afterEach(() => configure(undefined));
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
  rmSync(dataDir, { recursive: true, force: true });
});

it("hashes at scrypt's default cost and checks the passcode, in any Unicode normal form", async () => {
  const hash = await hashPasscode("café 1234");
  expect(hash).toMatch(new RegExp(`^scrypt\\$${2 ** PASSCODE_SCRYPT_LOG2_N}\\$8\\$1\\$[\\w-]{22}\\$[\\w-]{43}$`));
  expect(await verifyPasscode("café 1234", hash)).toBe(true);
  expect(await verifyPasscode("cafe\u0301 1234", hash)).toBe(true);
  expect(await verifyPasscode("café 1235", hash)).toBe(false);
  expect(await hashPasscode("café 1234")).not.toBe(hash);
});

it("hashes at a test server's lower cost, and checks that hash at the cost it carries once the default is back", async () => {
  configure("10");
  const cheap = await hashPasscode("open sesame");
  expect(cheap.split("$")[1]).toBe("1024");
  configure(undefined);
  expect(await verifyPasscode("open sesame", cheap)).toBe(true);
  expect(await verifyPasscode("open sesamE", cheap)).toBe(false);
});

it("refuses a hash of another scheme or without its parts", async () => {
  expect(await verifyPasscode("x", "bcrypt$10$abc")).toBe(false);
  expect(await verifyPasscode("x", "scrypt$1024$8$1")).toBe(false);
});
