// A database that goes away answers 503 service_unavailable with Retry-After in the Error shape, not
// 500 internal_error, and the service recovers by itself when it is back. PostgreSQL only: the app
// reaches it through a TCP relay the test cuts. (SQLite's outage, a lock held past the busy timeout,
// is covered with real error objects in tests/unit/database-outage.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_URL, startApp, testDb, type TestApp } from "../helpers/app";
import { expect503 } from "../helpers/expect-retry";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";

describe.skipIf(testDb() !== "postgres")("PostgreSQL going away", () => {
  let proxy: TcpProxy;
  let app: TestApp;
  let token: string;
  let slug: string;

  beforeAll(async () => {
    const direct = new URL(POSTGRES_URL);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    app = await startApp({
      databaseUrl: (url) => {
        const relayed = new URL(url);
        relayed.hostname = "127.0.0.1";
        relayed.port = String(proxy.port);
        return relayed.toString();
      },
    });
    token = await app.createToken("outage");
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p/>" } });
    expect(created.status).toBe(201);
    slug = created.body.slug;
  });
  afterAll(async () => {
    await app?.stop();
    await proxy?.close();
  });

  it("answers 503 with Retry-After while the database is unreachable, and recovers when it is back", async () => {
    await proxy.close();
    expect503(await app.api("/api/drops", { token }));
    expect503(await app.api("/api/drops", { method: "POST", token, body: { title: "u", html: "<p/>" } }));
    expect503(await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title: "u" } }));
    expect503(await app.api(`/api/auth/poll?token=${"x".repeat(43)}`));
    expect503(await app.api("/mcp", { method: "POST", token, headers: { accept: "application/json, text/event-stream" }, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } }));
    const unhealthy = await app.api("/api/health");
    expect503(unhealthy);
    expect(unhealthy.body.error.details).toMatchObject({ database: "unavailable" });

    await proxy.open();
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      status = (await app.api(`/api/drops/${slug}`, { token })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
    expect((await app.api("/api/health")).body).toEqual({ status: "ok", database: "ok", ...(app.env.UPSTASH_REDIS_REST_URL ? { redis: "ok" } : {}) });
  });
});
