// The passwordless local sign-in must never open to another machine, whatever its Host header says.
import { request as httpRequest } from "node:http";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { signInBrowserless, tokenThroughDeviceFlow } from "../helpers/device-flow";

let app: TestApp;
let port: number;

beforeAll(async () => {
  app = await startApp({ env: { AUTH_DEV_LOGIN: "true" } });
  port = Number(app.env.PORT);
});
afterAll(async () => app?.stop());

/** This machine's address on a real network interface: connecting to it is connecting from afar. */
function externalAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((info) => info && !info.internal && info.family === "IPv4")?.address;
  if (!address) throw new Error("this test connects from a non-loopback address and needs a network interface with IPv4");
  return address;
}

type Answer = { status: number; text: string; cookies: string[] };

function call(address: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: address, port, path, method: body === undefined ? "GET" : "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text, cookies: response.headers["set-cookie"] ?? [] }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** Runs next-auth's credentials sign-in as "mallory", connecting to `address`; true when a session came back. */
async function signsIn(address: string, extraHeaders: Record<string, string> = {}): Promise<boolean> {
  const headers = { host: `localhost:${port}`, ...extraHeaders };
  const csrf = await call(address, "/api/auth/csrf", headers);
  const cookie = csrf.cookies.map((line) => line.split(";")[0]).join("; ");
  const form = new URLSearchParams({ csrfToken: JSON.parse(csrf.text).csrfToken, username: "mallory", callbackUrl: "/dashboard" }).toString();
  const answer = await call(address, "/api/auth/callback/credentials", { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" }, form);
  return answer.cookies.some((line) => line.startsWith("next-auth.session-token=") && !line.startsWith("next-auth.session-token=;"));
}

async function offersLocalSignIn(address: string, extraHeaders: Record<string, string> = {}): Promise<boolean> {
  const providers = await call(address, "/api/auth/providers", { host: `localhost:${port}`, ...extraHeaders });
  return Object.keys(JSON.parse(providers.text)).includes("credentials");
}

describe("the local sign-in", () => {
  it("works from this machine", async () => {
    expect(await offersLocalSignIn("127.0.0.1")).toBe(true);
    expect(await signsIn("127.0.0.1")).toBe(true);
  });

  it("refuses another machine even when its Host header names localhost", async () => {
    const address = externalAddress();
    expect(await offersLocalSignIn(address)).toBe(false);
    expect(await signsIn(address)).toBe(false);
  });

  it("names the account the admin command names (user names are case-insensitive)", async () => {
    const agentToken = await tokenThroughDeviceFlow(app, await signInBrowserless(app, "Alice"));
    const adminToken = await app.createToken("alice", "ci");
    const me = async (token: string) => (await app.api("/api/me", { token })).body.user_id as string;
    expect(await me(adminToken)).toBe(await me(agentToken));
  });

  it("is offered only to requests addressed to a loopback host, and /verify then names what is missing", async () => {
    expect(await offersLocalSignIn("127.0.0.1")).toBe(true);
    expect(await offersLocalSignIn("127.0.0.1", { host: "htmldrop.example.com" })).toBe(false);
    const { code } = (await app.api("/api/auth/start", { method: "POST" })).body as { code: string };
    const page = await call("127.0.0.1", `/verify?code=${code}`, { host: "htmldrop.example.com" });
    expect(page.text).toContain("No sign-in method is configured");
    expect(page.text).toContain("AUTH_OIDC_ISSUER");
  });

  it("refuses a request relayed by a proxy that TRUST_PROXY does not declare", async () => {
    const relayedBy: Record<string, string>[] = [{ "x-forwarded-for": "192.0.2.7" }, { forwarded: "for=192.0.2.7" }, { "x-real-ip": "192.0.2.7" }];
    for (const relayed of relayedBy) {
      expect(await offersLocalSignIn("127.0.0.1", relayed)).toBe(false);
      expect(await signsIn("127.0.0.1", relayed)).toBe(false);
    }
  });
});
