// Which addresses a Client ID Metadata Document may come from (lib/oauth/metadata-fetch.ts); the
// connection itself is tested against a loopback listener in tests/api/oauth-negative.test.ts.
import { describe, expect, it } from "vitest";
import { checkedAddress, isPublicAddress } from "@/lib/oauth/metadata-fetch";

describe("isPublicAddress", () => {
  it.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"])("accepts %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    "127.0.0.1", "127.255.0.9", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "224.0.0.1",
    "::", "::1", "::ffff:127.0.0.1", "::ffff:8.8.8.8", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "fc00::1", "fd12::1", "fe80::1", "ff02::1",
    "localhost", "not an address",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe("checkedAddress", () => {
  it("resolves a name and refuses it when any address is not public", async () => {
    await expect(checkedAddress("localhost")).rejects.toThrow(/not a public address/);
    await expect(checkedAddress("[::1]")).rejects.toThrow(/not a public address/);
    expect(await checkedAddress("8.8.8.8")).toBe("8.8.8.8");
  });
});
