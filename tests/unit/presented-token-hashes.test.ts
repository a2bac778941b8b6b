// A presented token's stored hashes are kept in memory (lib/security/tokens.ts storedTokenHashes): kept
// or not, they are the HMACs of its secret and of the whole token under the configured pepper.
import { createHmac } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { reloadConfig } from "@/lib/config";
import { mintToken, storedTokenHashes } from "@/lib/security/tokens";

function usePepper(pepper: string) {
  Object.assign(process.env, { AUTH_SECRET: "a".repeat(32), TOKEN_PEPPER: pepper, DATA_DIR: mkdtempSync(join(tmpdir(), "htmldrop-token-hashes-")) });
  reloadConfig();
}

const hmac = (pepper: string, text: string) => createHmac("sha256", pepper).update(text).digest("hex");

beforeEach(() => usePepper("b".repeat(32)));

describe("a presented token's stored hashes", () => {
  it("are the same HMACs when presented again, before and after more tokens than are kept", () => {
    const tokens = Array.from({ length: 3000 }, () => mintToken());
    for (const round of [1, 2]) {
      for (const { token, secret } of tokens) {
        expect(storedTokenHashes(token, secret), `round ${round}`).toEqual([hmac("b".repeat(32), secret), hmac("b".repeat(32), token)]);
      }
    }
  });

  it("follow the pepper when the configuration changes", () => {
    const { token, secret } = mintToken();
    expect(storedTokenHashes(token, secret)[0]).toBe(hmac("b".repeat(32), secret));
    usePepper("c".repeat(32));
    expect(storedTokenHashes(token, secret)).toEqual([hmac("c".repeat(32), secret), hmac("c".repeat(32), token)]);
  });
});
