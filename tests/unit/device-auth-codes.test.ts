import { BlockList } from "node:net";
import { describe, expect, it } from "vitest";
import { isLoopbackRequest } from "@/lib/auth/loopback";
import { newUserCode, normalizeUserCode } from "@/lib/device-auth/codes";
import type { TrustProxy } from "@/lib/config";
import { clientKeyFromHeaders, describeClient } from "@/lib/ratelimit/client-key";

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
  const local = { "x-htmldrop-local-client": "1" };
  it.each([
    [{ host: "localhost:3000", ...local }, true],
    [{ host: "127.0.0.1:3000", ...local }, true],
    [{ host: "[::1]:3000", ...local }, true],
    [{ host: "app.localhost", ...local }, true],
    // A forged Host from another machine: server.ts recorded the connection as not local.
    [{ host: "localhost:3000", "x-htmldrop-local-client": "0" }, false],
    [{ host: "localhost:3000" }, false],
    [{ host: "localhost:3000", "x-forwarded-host": "htmldrop.example.com", ...local }, false],
    [{ host: "192.168.1.20:3000", ...local }, false],
    [{ host: "localhost.example.com", ...local }, false],
    [{ ...local }, false],
  ])("treats %j as loopback: %s", (values, expected) => {
    expect(isLoopbackRequest(headers(values))).toBe(expected);
  });

  const none: TrustProxy = { kind: "none" };
  const oneHop: TrustProxy = { kind: "hops", hops: 1 };
  const twoHops: TrustProxy = { kind: "hops", hops: 2 };
  const proxies = new BlockList();
  proxies.addAddress("127.0.0.1");
  proxies.addSubnet("10.0.0.0", 8);
  proxies.addAddress("::1", "ipv6");
  const listed: TrustProxy = { kind: "addresses", proxies };
  it.each([
    ["a direct loopback connection", "127.0.0.1", {}, none, { address: "127.0.0.1", local: true }],
    ["IPv6 and IPv4-mapped loopback", "::ffff:127.0.0.1", {}, none, { address: "::ffff:127.0.0.1", local: true }],
    ["another machine", "192.0.2.7", { host: "localhost:3000" }, none, { address: "192.0.2.7", local: false }],
    ["a loopback connection relayed by an undeclared proxy", "127.0.0.1", { "x-forwarded-for": "192.0.2.7" }, none, { address: "127.0.0.1", local: false }],
    ["a proxy relaying with Forwarded", "::1", { forwarded: "for=192.0.2.7" }, none, { address: "::1", local: false }],
    ["a declared proxy: the entry it appended, not the client's", "127.0.0.1", { "x-forwarded-for": "127.0.0.1, 203.0.113.7" }, oneHop, { address: "203.0.113.7", local: false }],
    ["a declared proxy relaying a local client", "127.0.0.1", { "x-forwarded-for": "127.0.0.9" }, oneHop, { address: "127.0.0.9", local: true }],
    ["a declared proxy without X-Forwarded-For", "127.0.0.1", {}, oneHop, { address: "127.0.0.1", local: true }],
    ["two proxies in a row: the entry the first appended", "10.0.0.2", { "x-forwarded-for": "127.0.0.1, 203.0.113.7, 10.0.0.1" }, twoHops, { address: "203.0.113.7", local: false }],
    ["a listed proxy: the entry it appended", "::ffff:10.0.0.1", { "x-forwarded-for": "127.0.0.1, 203.0.113.7" }, listed, { address: "203.0.113.7", local: false }],
    ["listed proxies in a row, walked back to the first address that is none", "127.0.0.1", { "x-forwarded-for": "198.51.100.1, 203.0.113.7, 10.1.2.3" }, listed, { address: "203.0.113.7", local: false }],
    ["a peer that is not a listed proxy, claiming loopback", "192.0.2.7", { "x-forwarded-for": "127.0.0.1" }, listed, { address: "192.0.2.7", local: false }],
    ["a listed proxy relaying a client on its machine", "::1", { "x-forwarded-for": "::1" }, listed, { address: "::1", local: true }],
  ])("describes %s", (_, socket, incoming, trust, expected) => {
    expect(describeClient(socket, incoming, trust)).toEqual(expected);
  });

  it("keys clients by the address server.ts records", () => {
    expect(clientKeyFromHeaders(headers({ "x-forwarded-for": "203.0.113.7", "x-htmldrop-client": "127.0.0.1" }))).toBe("127.0.0.1");
    expect(clientKeyFromHeaders(headers({}))).toBe("unknown");
  });

  it.each([
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:db8:0001:0002:ffff::1%eth0", "2001:db8:1:2::/64"],
    ["2001:db8::7", "2001:db8:0:0::/64"],
    ["64:ff9b::192.0.2.7", "64:ff9b:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["192.0.2.7", "192.0.2.7"],
  ])("keys %s as %s: an IPv6 host holds a whole /64", (address, key) => {
    expect(clientKeyFromHeaders(headers({ "x-htmldrop-client": address }))).toBe(key);
  });
});
