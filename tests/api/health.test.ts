// GET /api/health for load balancers: 200 with each dependency's state when they answer, no token
// needed, nothing cached. (The 503s are in database-outage.test.ts and redis-outage.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

describe("GET /api/health", () => {
  it("answers 200 with the database's state, and Redis's only when the limits live there", async () => {
    const res = await app.api("/api/health");
    // As Vercel serves (the serverless test project), the limits live in Upstash. Status and body in one
    // assertion, so that a 503 names what did not answer.
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { status: "ok", database: "ok", ...(app.env.UPSTASH_REDIS_REST_URL ? { redis: "ok" } : {}) } });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers many concurrent checks, as behind several load balancers", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => app.api("/api/health")));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
  });

  it("takes GET only, with the Error shape and Allow", async () => {
    const res = await app.api("/api/health", { method: "POST", body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(res.body.error.code).toBe("invalid_arg");
  });

  it("is in the OpenAPI document, without security", async () => {
    const document = (await app.api("/openapi.json")).body;
    expect(document.paths["/api/health"].get.operationId).toBe("getHealth");
    expect(document.paths["/api/health"].get.security).toEqual([]);
    expect(Object.keys(document.paths["/api/health"].get.responses)).toEqual(expect.arrayContaining(["200", "503"]));
  });
});
