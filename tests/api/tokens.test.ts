import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

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
      token: { id: expect.stringMatching(/^[0-9a-f]{12}$/), label: "laptop", created_at: expect.any(Number), last_used_at: expect.any(Number) },
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
      expect(Object.keys(item).sort()).toEqual(["created_at", "id", "label", "last_used_at", "revoked_at"]);
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
