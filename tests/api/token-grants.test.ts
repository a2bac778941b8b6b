// Where scoped tokens come from: POST /api/tokens (validation, never more than the caller has, counted
// as a write), the admin command's flags, the device flow's optional scopes, and tokens stored before
// scopes existed.
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { embeddedCounters } from "../helpers/counters";
import { bridgeCounters } from "../helpers/upstash-bridge";
import { approveOverHttp, getVerifyPage, signInBrowserless } from "../helpers/device-flow";

const ALL = ["drops:read", "drops:write", "tokens:manage"];
const PEPPER = "pepper-for-the-grant-tests-0123456789";
const ROOT = join(import.meta.dirname, "..", "..");

let app: TestApp;
let full: string;
let userId: string;

beforeAll(async () => {
  app = await startApp({ env: { TOKEN_PEPPER: PEPPER, TRUST_PROXY: "true" } });
  full = await app.createToken("granter", "full");
  userId = (await app.api("/api/me", { token: full })).body.user_id;
});
afterAll(async () => app?.stop());

async function createToken(token: string, body?: unknown) {
  return app.api("/api/tokens", { method: "POST", token, ...(body === undefined ? {} : { body }) });
}

async function writesToday(): Promise<number> {
  // As Vercel serves (the serverless test project), the counters live in Upstash.
  if (app.env.UPSTASH_REDIS_REST_TOKEN) return bridgeCounters(app.env.UPSTASH_REDIS_REST_TOKEN, `writesPerDay:${userId}:*`);
  return (await embeddedCounters(app, `writesPerDay:${userId}:`)).reduce((sum, row) => sum + row.count, 0);
}

describe("POST /api/tokens", () => {
  it("returns the plaintext once with the token's grant, and counts as one write", async () => {
    const before = await writesToday();
    const res = await createToken(full, { label: "ci", scopes: ["drops:write", "drops:read", "drops:read"] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["created_at", "drops", "expires_at", "id", "label", "scopes", "token"]);
    expect(res.body).toMatchObject({ token: expect.stringMatching(/^hd_[0-9A-Za-z]{40}$/), id: expect.stringMatching(/^[0-9a-f]{12}$/), label: "ci", scopes: ["drops:read", "drops:write"], drops: null, expires_at: null });
    expect(await writesToday()).toBe(before + 1);

    const me = await app.api("/api/me", { token: res.body.token });
    expect(me.body.user_id).toBe(userId);
    expect(me.body.token).toMatchObject({ id: res.body.id, label: "ci", scopes: ["drops:read", "drops:write"] });
    const list = await app.api("/api/tokens", { token: full });
    expect(list.text).not.toContain(res.body.token.slice(3));
    expect(list.body.map((item: { id: string }) => item.id)).toContain(res.body.id);

    // No body at all: a copy of the caller's grant.
    const copy = await createToken(full);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ label: null, scopes: ALL, drops: null, expires_at: null });
  });

  it.each([
    ["an unknown scope", { scopes: ["drops:admin"] }, "scopes.0"],
    ["no scopes", { scopes: [] }, "scopes"],
    ["scopes as a string", { scopes: "drops:read" }, "scopes"],
    ["scopes as null", { scopes: null }, "scopes"],
    ["an empty drop list", { drops: [] }, "drops"],
    ["a malformed slug", { drops: ["NOT A SLUG"] }, "drops.0"],
    ["expires_at as text", { expires_at: "tomorrow" }, "expires_at"],
    ["a fractional expires_at", { expires_at: 1.5 }, "expires_at"],
    ["an empty label", { label: "" }, "label"],
    ["a NUL in the label", { label: "a\u0000b" }, "label"],
    ["an unknown field", { role: "admin" }, "role"],
  ])("refuses %s with 400 invalid_arg, uncounted", async (_name, body, field) => {
    const before = await writesToday();
    const res = await createToken(full, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_arg");
    expect(res.body.error.details.fields.map((entry: { field: string }) => entry.field)).toContain(field);
    expect(await writesToday()).toBe(before);
  });

  it("refuses a body that is not JSON with invalid_json", async () => {
    const res = await app.api("/api/tokens", { method: "POST", token: full, rawBody: "{scopes:", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("never grants a scope the caller lacks", async () => {
    const manager = (await createToken(full, { label: "manager", scopes: ["drops:read", "tokens:manage"] })).body.token;
    const before = await writesToday();
    for (const scopes of [["drops:write"], ALL, ["drops:read", "drops:write"]]) {
      const res = await createToken(manager, { scopes });
      expect(res.status, scopes.join()).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
      expect(res.body.error.details).toEqual({ required_scope: "drops:write" });
      expect(res.body.error.message).toContain("drops:write");
    }
    expect(await writesToday()).toBe(before);

    const narrower = await createToken(manager, { scopes: ["drops:read"] });
    expect(narrower.body.scopes).toEqual(["drops:read"]);
    expect((await createToken(manager, {})).body.scopes).toEqual(["drops:read", "tokens:manage"]);
    // The narrower token cannot make tokens at all.
    const refused = await createToken(narrower.body.token, {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual({ required_scope: "tokens:manage" });
  });
});

describe("npm run admin -- token create", () => {
  const TSX = join(ROOT, "node_modules", ".bin", "tsx");

  async function admin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    // The server's variables, and its own choice of NODE_ENV, as startApp gives them.
    const env: Record<string, string | undefined> = { ...process.env, ...app.env };
    delete env.NODE_ENV;
    try {
      const { stdout, stderr } = await promisify(execFile)(TSX, ["scripts/admin.ts", "token", "create", "--login", "granter", ...args], { cwd: ROOT, env: env as NodeJS.ProcessEnv });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it("takes repeatable --scope and --drop and an --expires lifetime; the token is the last line", async () => {
    const drop = await app.api("/api/drops", { method: "POST", token: full, body: { title: "ci target", html: "<p>x</p>" } });
    const before = Date.now();
    const run = await admin(["--label", "ci", "--scope", "drops:read", "--scope", "drops:write", "--drop", drop.body.slug, "--expires", "30d"]);
    expect(run.code, run.stderr).toBe(0);
    const token = run.stdout.trim().split("\n").at(-1)!;
    const me = (await app.api("/api/me", { token })).body;
    expect(me.user_id).toBe(userId);
    expect(me.token).toMatchObject({ label: "ci", scopes: ["drops:read", "drops:write"], drops: [drop.body.slug] });
    expect(me.token.expires_at).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(me.token.expires_at).toBeLessThan(Date.now() + 30 * 86_400_000 + 1000);
    expect(run.stderr).toContain(`drops ${drop.body.slug}`);
  });

  it("refuses an unknown scope and a date in the past, printing no token", async () => {
    const unknown = await admin(["--scope", "drops:admin"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^--scope: /m);
    expect(unknown.stdout).toBe("");
    const past = await admin(["--expires", "2001-02-03"]);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain("--expires: must be in the future");
    expect(past.stdout).toBe("");
  });
});

describe("tokens minted by a token", () => {
  it("die with it, and with the token that minted that one; the list names the minter", async () => {
    const parent = await createToken(full, { label: "parent" });
    const child = await createToken(parent.body.token, { label: "child" });
    const grandchild = await createToken(child.body.token, { label: "grandchild" });
    const sibling = await createToken(full, { label: "sibling" });
    const listed = (await app.api("/api/tokens", { token: full })).body as Array<{ id: string; minted_by?: string }>;
    expect(listed.find((item) => item.id === child.body.id)?.minted_by).toBe(parent.body.id);
    expect(listed.find((item) => item.id === grandchild.body.id)?.minted_by).toBe(child.body.id);

    expect((await app.api(`/api/tokens/${parent.body.id}`, { method: "DELETE", token: full })).status).toBe(204);
    for (const token of [parent, child, grandchild]) expect((await app.api("/api/me", { token: token.body.token })).status).toBe(401);
    expect((await app.api("/api/me", { token: sibling.body.token })).status).toBe(200);
    expect((await app.api("/api/me", { token: full })).status).toBe(200);
  });
});

describe("the device flow with scopes", () => {
  let clients = 0;

  async function signIn(body: unknown) {
    clients += 1;
    const client = `127.0.60.${clients}`;
    const started = await app.api("/api/auth/start", { method: "POST", headers: { "x-forwarded-for": client }, body });
    expect(started.status, started.text).toBe(200);
    const session = await signInBrowserless(app, "granter", client);
    // React separates interpolated text with comment markers.
    const page = (await getVerifyPage(session, started.body.code)).replaceAll("<!-- -->", "");
    expect((await approveOverHttp(session, started.body.code)).status).toBe(303);
    const polled = await app.api(`/api/auth/poll?token=${started.body.poll_token}`, { headers: { "x-forwarded-for": client } });
    expect(polled.body.status).toBe("verified");
    return { page, token: polled.body.api_token as string };
  }

  it("shows the requested scopes on /verify and mints a token with exactly those", async () => {
    const { page, token } = await signIn({ label: "reader", scopes: ["drops:read"] });
    expect(page).toContain('data-scope="drops:read"');
    expect(page).toContain("Read your drops, their versions and their context");
    expect(page).not.toContain('data-scope="drops:write"');
    expect(page).toContain("will not be able to: publish, change and delete drops, versions, passcodes and your patterns; list, create and revoke your api tokens");
    const me = await app.api("/api/me", { token });
    expect(me.body.token).toMatchObject({ label: "reader", scopes: ["drops:read"], drops: null, expires_at: null });
    expect((await app.api("/api/drops", { token })).status).toBe(200);
    const write = await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p>x</p>" } });
    expect(write.status).toBe(403);
    expect(write.body.error.details).toEqual({ required_scope: "drops:write" });
  });

  it("asks for every scope when the agent names none, as before scopes existed", async () => {
    const { page, token } = await signIn({ label: "everything" });
    for (const scope of ALL) expect(page).toContain(`data-scope="${scope}"`);
    expect(page).not.toContain("will not be able to");
    expect((await app.api("/api/me", { token })).body.token.scopes).toEqual(ALL);
  });

  it.each([
    ["an unknown scope", { scopes: ["drops:admin"] }, "scopes.0"],
    ["no scopes", { scopes: [] }, "scopes"],
    ["a string", { scopes: "drops:read" }, "scopes"],
  ])("refuses %s with 400 invalid_arg", async (_name, body, field) => {
    const res = await app.api("/api/auth/start", { method: "POST", headers: { "x-forwarded-for": "127.0.61.1" }, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_arg");
    expect(res.body.error.details.fields[0].field).toBe(field);
  });
});

describe("tokens stored before scopes existed", () => {
  it("have every scope, every drop and no expiry", async () => {
    // A row as an earlier release wrote it: none of the new columns named, so the migration's defaults apply.
    const secret = "L3gacyL3gacyL3gacyL3gacyL3gacyL3gacy0000";
    const hash = createHmac("sha256", PEPPER).update(secret).digest("hex");
    const fullId = (await app.api("/api/me", { token: full })).body.token.id;
    await app.sql(
      `INSERT INTO "ApiToken" ("id", "hash", "userId", "label", "createdAt") SELECT '${hash.slice(0, 12)}', '${hash}', "userId", 'old', "createdAt" FROM "ApiToken" WHERE "id" = '${fullId}'`,
    );
    const token = `hd_${secret}`;
    const me = await app.api("/api/me", { token });
    expect(me.status).toBe(200);
    expect(me.body.token).toMatchObject({ label: "old", scopes: ALL, drops: null, expires_at: null });
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "still works", html: "<p>x</p>" } })).status).toBe(201);
    expect((await app.api("/api/tokens", { token })).status).toBe(200);
  });
});
