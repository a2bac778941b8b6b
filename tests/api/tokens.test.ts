import { createHmac } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_URL, startApp, type TestApp } from "../helpers/app";
import { approveOverHttp, signInBrowserless } from "../helpers/device-flow";

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.stop());

describe("bearer authentication", () => {
  it.each([
    ["no Authorization header", undefined, "token_required"],
    ["a Basic credential", "Basic YWxpY2U6cHc=", "invalid_token"],
    ["a malformed bearer token", "Bearer not-a-token", "invalid_token"],
    ["a well-formed unknown token", `Bearer hd_${"A".repeat(40)}`, "unauthorized"],
  ])("%s → 401 %s", async (_name, authorization, code) => {
    for (const [method, path] of [["GET", "/api/me"], ["GET", "/api/drops"], ["POST", "/api/drops"], ["GET", "/api/tokens"]] as const) {
      const res = await app.api(path, { method, headers: authorization ? { authorization } : {}, ...(method === "POST" ? { body: { title: "t", html: "x" } } : {}) });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe(code);
    }
  });

  it("stores only a hash of each token", async () => {
    const token = await app.createToken("hasher");
    const rows = await app.sql<{ hash: string; id: string }>(`SELECT "hash", "id" FROM "ApiToken"`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.id).toBe(row.hash.slice(0, 12));
      expect(row.hash).not.toContain(token.slice(3));
    }
    expect(token).toMatch(/^hd_[0-9A-Za-z]{40}$/);
  });
});

describe("/api/me and tokens", () => {
  it("describes the caller, lists tokens with labels, and revokes one without touching the other", async () => {
    const first = await app.createToken("carol", "laptop");
    const second = await app.createToken("carol", "ci");
    const me = await app.api("/api/me", { token: first });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user_id: expect.any(String),
      created_at: expect.any(Number),
      drop_count: 0,
      token: {
        id: expect.stringMatching(/^[0-9a-f]{12}$/),
        label: "laptop",
        created_at: expect.any(Number),
        last_used_at: expect.any(Number),
        // Additions to the spec's object: an admin-made token has every scope, every drop, no expiry.
        scopes: ["drops:read", "drops:write", "tokens:manage"],
        drops: null,
        expires_at: null,
      },
    });
    const meSecond = await app.api("/api/me", { token: second });
    expect(meSecond.body.user_id).toBe(me.body.user_id);
    expect(meSecond.body.token.label).toBe("ci");

    await app.api("/api/drops", { method: "POST", token: first, body: { title: "t", html: "<p/>" } });
    expect((await app.api("/api/me", { token: second })).body.drop_count).toBe(1);

    const list = await app.api("/api/tokens", { token: first });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body.map((t: { label: string }) => t.label).sort()).toEqual(["ci", "laptop"]);
    for (const item of list.body) {
      expect(Object.keys(item).sort()).toEqual(["created_at", "drops", "expires_at", "id", "kind", "label", "last_used_at", "revoked_at", "scopes"]);
      expect(item.revoked_at).toBeNull();
      expect(JSON.stringify(item)).not.toContain(first.slice(3));
    }

    const revoke = await app.api(`/api/tokens/${meSecond.body.token.id}`, { method: "DELETE", token: first });
    expect(revoke.status).toBe(204);
    expect((await app.api("/api/me", { token: second })).body.error.code).toBe("unauthorized");
    expect((await app.api("/api/me", { token: first })).status).toBe(200);

    const after = await app.api("/api/tokens", { token: first });
    const revoked = after.body.find((t: { id: string }) => t.id === meSecond.body.token.id);
    expect(revoked.revoked_at).toEqual(expect.any(Number));
  });

  it("does not let one account see or revoke another account's tokens", async () => {
    const dave = await app.createToken("dave");
    const erin = await app.createToken("erin");
    const erinId = (await app.api("/api/me", { token: erin })).body.token.id;
    const daveList = await app.api("/api/tokens", { token: dave });
    expect(daveList.body.map((t: { id: string }) => t.id)).not.toContain(erinId);
    const attempt = await app.api(`/api/tokens/${erinId}`, { method: "DELETE", token: dave });
    expect(attempt.status).toBe(404);
    expect(attempt.body.error.code).toBe("not_found");
    expect((await app.api("/api/me", { token: erin })).status).toBe(200);
  });

  it("admin token create gives the same account for the same login", async () => {
    const a = await app.createToken("Frank");
    const b = await app.createToken("frank");
    const [meA, meB] = await Promise.all([app.api("/api/me", { token: a }), app.api("/api/me", { token: b })]);
    expect(meA.body.user_id).toBe(meB.body.user_id);
  });
});

describe("changing TOKEN_PREFIX on a live database", () => {
  const PEPPER = "pepper-for-the-prefix-test-0123456789";
  let live: TestApp;
  beforeAll(async () => {
    live = await startApp({ env: { TOKEN_PREFIX: "aa", TOKEN_PEPPER: PEPPER, TRUST_PROXY: "true" } });
  });
  afterAll(async () => live?.stop());

  /** Writes to the app's database, as an earlier release would have left it. */
  async function execute(statement: string): Promise<void> {
    if (!live.env.DATABASE_URL) {
      const sqlite = new Database(join(live.env.DATA_DIR!, "htmldrop.db"));
      try {
        sqlite.prepare(statement).run();
      } finally {
        sqlite.close();
      }
      return;
    }
    const schema = new URL(live.env.DATABASE_URL).searchParams.get("schema");
    const client = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  async function tokenFromDeviceFlow(label: string): Promise<string> {
    const client = "127.0.0.20";
    const started = await live.api("/api/auth/start", { method: "POST", headers: { "x-forwarded-for": client }, body: { label } });
    const session = await signInBrowserless(live, "pat", client);
    expect((await approveOverHttp(session, started.body.code)).status).toBe(303);
    const polled = await live.api(`/api/auth/poll?token=${started.body.poll_token}`, { headers: { "x-forwarded-for": client } });
    expect(polled.body.status).toBe("verified");
    return polled.body.api_token;
  }

  const me = async (token: string) => live.api("/api/me", { token });

  it("keeps every issued token working, mints new ones with the new prefix and lists them all", async () => {
    const byAdmin = await live.createToken("pat", "admin");
    const byDevice = await tokenFromDeviceFlow("device");
    expect(byAdmin).toMatch(/^aa_[0-9A-Za-z]{40}$/);
    expect(byDevice).toMatch(/^aa_[0-9A-Za-z]{40}$/);

    // A token as an earlier release stored it: the keyed hash of the whole token, prefix included.
    const legacy = await live.createToken("pat", "legacy");
    const legacyId = (await me(legacy)).body.token.id;
    const legacyHash = createHmac("sha256", PEPPER).update(legacy).digest("hex");
    await execute(`UPDATE "ApiToken" SET "hash" = '${legacyHash}', "id" = '${legacyHash.slice(0, 12)}' WHERE "id" = '${legacyId}'`);
    expect((await me(legacy)).status).toBe(200);

    await live.restart({ TOKEN_PREFIX: "bb" });

    for (const token of [byAdmin, byDevice, legacy]) {
      const res = await me(token);
      expect(res.status, token.slice(0, 3)).toBe(200);
    }
    // The prefix is a label, not part of the secret: the same secret under the new label works too.
    expect((await me(`bb_${byAdmin.slice(3)}`)).status).toBe(200);
    // Tokens stored the earlier way verify only under the prefix they were minted with.
    expect((await me(`bb_${legacy.slice(3)}`)).body.error.code).toBe("unauthorized");

    const newByAdmin = await live.createToken("pat", "admin after");
    const newByDevice = await tokenFromDeviceFlow("device after");
    expect(newByAdmin).toMatch(/^bb_[0-9A-Za-z]{40}$/);
    expect(newByDevice).toMatch(/^bb_[0-9A-Za-z]{40}$/);
    expect((await me(newByAdmin)).status).toBe(200);
    expect((await me(newByDevice)).status).toBe(200);

    // One account, or two where the device flow signs in through an identity provider (serving as Vercel does).
    const listed = async (token: string) => (await live.api("/api/tokens", { token })).body as { id: string; label: string; revoked_at: number | null }[];
    const tokens = [...new Map([...(await listed(newByAdmin)), ...(await listed(newByDevice))].map((token) => [token.id, token])).values()];
    expect(tokens.map((token) => token.label).sort()).toEqual(["admin", "admin after", "device", "device after", "legacy"]);
    expect(tokens.every((token) => token.revoked_at === null)).toBe(true);

    // Revoking still works for old and legacy tokens alike.
    for (const token of [byAdmin, legacy]) {
      const id = (await me(token)).body.token.id;
      expect((await live.api(`/api/tokens/${id}`, { method: "DELETE", token: newByAdmin })).status).toBe(204);
      expect((await me(token)).body.error.code).toBe("unauthorized");
    }
  });

  it("refuses a token whose prefix no configuration could have issued as malformed", async () => {
    const token = await live.createToken("pat");
    for (const prefix of ["", "B", "toolongprefix", "a1", "a-b"]) {
      const res = await me(`${prefix}_${token.slice(3)}`);
      expect(res.body.error.code, prefix).toBe("invalid_token");
    }
  });
});
