// Where webhooks may go on a production instance (a PUBLIC_URL that is not loopback): https to public
// addresses only, decided before connecting, after DNS resolution, on every hop. The loopback case (a
// loopback PUBLIC_URL, where loopback receivers are allowed) is tests/api/webhooks.test.ts.
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { lookup } from "node:dns/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedAddress, isLoopbackAddress } from "@/lib/oauth/metadata-fetch";
import { endpointUrlProblem, registrationUrlProblem } from "@/lib/webhooks/url-policy";
import { sendWebhook } from "@/lib/webhooks/send";

const server = createServer((socket) => {
  connections += 1;
  socket.destroy();
});
let connections = 0;
let port = 0;

beforeAll(async () => {
  Object.assign(process.env, {
    PUBLIC_URL: "https://drops.example.com",
    AUTH_SECRET: "a".repeat(32),
    TOKEN_PEPPER: "b".repeat(32),
    DATA_DIR: mkdtempSync(join(tmpdir(), "htmldrop-webhook-policy-")),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("endpointUrlProblem in production", () => {
  it.each([
    ["http://hooks.example.com/in", "url must use https"],
    ["https://127.0.0.1/in", "url must not point at this machine (loopback)"],
    ["https://localhost/in", "url must not point at this machine (loopback)"],
    ["https://[::1]/in", "url must not point at this machine (loopback)"],
    ["https://[::ffff:127.0.0.1]/in", "url must not point at a private, loopback or link-local address (::ffff:7f00:1)"],
    ["https://10.0.0.1/in", "url must not point at a private, loopback or link-local address (10.0.0.1)"],
    ["https://169.254.169.254/in", "url must not point at a private, loopback or link-local address (169.254.169.254)"],
    ["https://[fe80::1]/in", "url must not point at a private, loopback or link-local address (fe80::1)"],
    ["https://drops.example.com/api/health", "url must not point at htmldrop itself"],
  ])("refuses %s", (url, problem) => {
    expect(endpointUrlProblem(url)).toBe(problem);
  });

  it("accepts https to a public name or address", () => {
    expect(endpointUrlProblem("https://hooks.example.com/in")).toBeNull();
    expect(endpointUrlProblem("https://93.184.215.14/in")).toBeNull();
  });
});

describe("after DNS resolution", () => {
  it("refuses a name that resolves to this machine, at registration and before connecting", async () => {
    // This machine's own name resolves to a loopback address (127.0.0.1, or Debian's 127.0.1.1).
    const name = hostname();
    expect((await lookup(name, { all: true })).every(({ address }) => isLoopbackAddress(address))).toBe(true);
    await expect(checkedAddress(name)).rejects.toThrow(/not a public address/);
    expect(await checkedAddress(name, true)).toMatch(/^127\./);
    expect(await registrationUrlProblem(`https://${name}:${port}/in`)).toMatch(/^url must not point at a private, loopback or link-local address: .* not a public address$/);

    const attempt = await sendWebhook(`https://${name}:${port}/in`, { id: "msg_test", body: "{}", secret: "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
    expect(attempt).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining("not a public address") });
    expect(connections).toBe(0);
  });

  it("never counts an IPv4-mapped loopback address as loopback", async () => {
    expect(isLoopbackAddress("::ffff:127.0.0.1")).toBe(false);
    await expect(checkedAddress("[::ffff:127.0.0.1]", true)).rejects.toThrow(/not a public address/);
  });
});
