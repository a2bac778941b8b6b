// Passcode attempts behind a declared proxy (TRUST_PROXY=true), or as Vercel serves behind its edge:
// the client is the address the proxy appended, and one drop takes at most 100 attempts an hour from
// everyone. Runs where the client's address comes from differs (npm start, Vercel); the limiter's
// windows on each database are limits-database.test.ts's.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";
import { PEER_ADDRESS_HEADER } from "../helpers/vercel-edge";

const clock = createTestClock();
let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startApp({ env: { TRUST_PROXY: "true", HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  token = await app.createToken("serving-app");
});
afterAll(async () => app?.stop());

async function lockedDrop(): Promise<string> {
  const res = await app.api("/api/drops", { method: "POST", token: token, body: { title: "locked", html: "<p/>", passcode: "sesame" } });
  expect(res.status).toBe(201);
  return res.body.slug;
}

function attempt(slug: string, passcode: string, forwardedFor: string) {
  return fetch(`${app.baseUrl}/p/${slug}/unlock`, {
    method: "POST",
    body: new URLSearchParams({ passcode }),
    // Behind `npm start` a trusted proxy appended the last address; as Vercel serves, the edge sees it.
    headers: { "x-forwarded-for": forwardedFor, [PEER_ADDRESS_HEADER]: forwardedFor.split(",").at(-1)!.trim() },
    redirect: "manual",
  }).then((res) => res.headers.get("location"));
}

it("keys the client by the address the proxy appended, not by what the client wrote before it", async () => {
  clock.startWindow(60 * MINUTE_MS);
  const slug = await lockedDrop();
  for (let i = 0; i < 10; i++) expect(await attempt(slug, "wrong", `10.0.0.${i}, 203.0.113.9`)).toBe(`/p/${slug}?error=wrong`);
  expect(await attempt(slug, "sesame", "10.0.0.99, 203.0.113.9")).toBe(`/p/${slug}?error=limited`);
  expect(await attempt(slug, "sesame", "203.0.113.10")).toBe(`/p/${slug}`);
});

it("caps attempts on one drop across all clients at 100 an hour", async () => {
  clock.startWindow(60 * MINUTE_MS);
  const slug = await lockedDrop();
  const clients = Array.from({ length: 10 }, (_, i) => `198.51.100.${i}`);
  const answers = await Promise.all(clients.map(async (client) => Promise.all(Array.from({ length: 10 }, () => attempt(slug, "wrong", client)))));
  expect(answers.flat().every((location) => location === `/p/${slug}?error=wrong`)).toBe(true);
  expect(await attempt(slug, "sesame", "198.51.100.200")).toBe(`/p/${slug}?error=limited`);
  // Another drop has its own budget.
  const other = await lockedDrop();
  expect(await attempt(other, "sesame", "198.51.100.201")).toBe(`/p/${other}`);
});
