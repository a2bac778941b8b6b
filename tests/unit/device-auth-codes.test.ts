import { describe, expect, it } from "vitest";
import { isLoopbackRequest } from "@/lib/auth/loopback";
import { newUserCode, normalizeUserCode } from "@/lib/device-auth/codes";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";

describe("user codes", () => {
  it("are two groups of four unambiguous consonants", () => {
    const codes = new Set(Array.from({ length: 2000 }, () => newUserCode()));
    expect(codes.size).toBe(2000);
    for (const code of codes) expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  });

  it.each([
    ["BCDF-GHJK", "BCDF-GHJK"],
    ["bcdfghjk", "BCDF-GHJK"],
    [" bcdf ghjk ", "BCDF-GHJK"],
    ["BCDF-GHJ", null],
    ["BCDF-GHJA", null],
    ["BCD0-GHJK", null],
    ["", null],
  ])("normalizes %j to %j", (input, expected) => {
    expect(normalizeUserCode(input)).toBe(expected);
  });
});

const headers = (values: Record<string, string>) => new Headers(values);

describe("request origin checks", () => {
  it.each([
    [{ host: "localhost:3000" }, true],
    [{ host: "127.0.0.1:3000" }, true],
    [{ host: "[::1]:3000" }, true],
    [{ host: "app.localhost" }, true],
    [{ host: "localhost:3000", "x-forwarded-host": "htmldrop.example.com" }, false],
    [{ host: "192.168.1.20:3000" }, false],
    [{ host: "localhost.example.com" }, false],
    [{}, false],
  ])("treats %j as loopback: %s", (values, expected) => {
    expect(isLoopbackRequest(headers(values))).toBe(expected);
  });

  it("keys clients by the address server.ts records, and by X-Forwarded-For only behind a declared proxy", () => {
    const spoofed = headers({ "x-forwarded-for": "203.0.113.7, 10.0.0.1", "x-htmldrop-client": "127.0.0.1" });
    expect(clientKeyFromHeaders(spoofed, false)).toBe("127.0.0.1");
    expect(clientKeyFromHeaders(spoofed, true)).toBe("203.0.113.7");
    expect(clientKeyFromHeaders(headers({}), false)).toBe("unknown");
  });
});
