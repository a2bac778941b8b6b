// next-auth's callbackUrl (query, form field or cookie) decides where the browser goes after signing in:
// a malformed one falls back to the home page instead of a 500, and another site is never a destination.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { CookieJar } from "../helpers/cookie-jar";
import { signInThroughProviderTo } from "../helpers/identity-provider";

let app: TestApp;
let origin: string;
let home: string;

beforeAll(async () => {
  app = await startApp();
  origin = app.baseUrl;
  home = `${origin}/`;
});
afterAll(async () => app?.stop());

const BAD = ["%", "http://[", "%zz", "/%zz", "javascript:alert(1)", "https://evil.example/next", "//evil.example", "/\\evil.example", "http://localhost.evil.example/"];

function send(path: string, init: RequestInit & { jar?: CookieJar } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.jar) headers.set("cookie", init.jar.header());
  return fetch(`${origin}${path}`, { ...init, headers, redirect: "manual" });
}

/** Signs in with the given callbackUrl form field; returns where next-auth sends the browser, and that answer's status. */
async function signInTo(callbackUrl: string): Promise<{ status: number; location: string | null }> {
  if (app.signsInThrough === "identity-provider") return signInThroughProviderTo(app, "cally", callbackUrl);
  const jar = new CookieJar();
  const csrf = await send("/api/auth/csrf");
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const body = new URLSearchParams({ csrfToken, username: "cally", callbackUrl });
  const answer = await send("/api/auth/callback/credentials", { method: "POST", body, jar, headers: { "content-type": "application/x-www-form-urlencoded" } });
  return { status: answer.status, location: answer.headers.get("location") };
}

function callbackCookie(response: Response): string | undefined {
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith("next-auth.callback-url="));
  return line === undefined ? undefined : decodeURIComponent(line.split(";")[0]!.slice("next-auth.callback-url=".length));
}

describe("a sign-in's callbackUrl", () => {
  it("on the way to the sign-in page: a malformed or foreign one means the home page", async () => {
    for (const bad of BAD) {
      const answer = await send(`/api/auth/signin?callbackUrl=${encodeURIComponent(bad)}`);
      expect(answer.status, bad).toBe(302);
      expect(answer.headers.get("location"), bad).toBe(`/signin?callbackUrl=${encodeURIComponent(home)}`);
      expect(callbackCookie(answer), bad).toBe(home);
    }
    const own = await send(`/api/auth/signin?callbackUrl=${encodeURIComponent("/dashboard?page=2")}`);
    expect(callbackCookie(own)).toBe(`${origin}/dashboard?page=2`);
  });

  it("on the sign-in page itself: a malformed or foreign one is never a form's destination", async () => {
    const jar = new CookieJar();
    jar.store(await send("/api/auth/csrf"));
    for (const bad of BAD) {
      const page = await send(`/signin?callbackUrl=${encodeURIComponent(bad)}`, { jar });
      expect(page.status, bad).toBe(200);
      const html = await page.text();
      // The address itself is echoed in Next's page data; no link or form field may carry it.
      expect(html, bad).not.toMatch(/(href|value|action)="[^"]*evil\.example/);
      expect(html, bad).toMatch(new RegExp(`name="callbackUrl" value="${origin}/"`));
    }
    const own = await (await send(`/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard?page=2`)}`, { jar })).text();
    expect(own).toContain(`name="callbackUrl" value="${origin}/dashboard?page=2"`);
  });

  it("in the sign-in form: a malformed or foreign one sends the signed-in browser home", async () => {
    for (const bad of BAD) {
      const answer = await signInTo(bad);
      expect(answer.status, bad).toBe(302);
      expect(answer.location, bad).toBe(home);
    }
    expect((await signInTo("/dashboard")).location).toBe(`${origin}/dashboard`);
    expect((await signInTo(`${origin}/verify?code=BCDF-GHJK`)).location).toBe(`${origin}/verify?code=BCDF-GHJK`);
  });

  it("in a POST's query or in the callback cookie: never a 500", async () => {
    const posted = await send("/api/auth/signin/credentials?callbackUrl=%25", { method: "POST" });
    expect(posted.status).toBeLessThan(500);
    // next-auth takes the last of repeated ones (fuzz seed 113).
    const repeated = await send("/api/auth/session?callbackUrl=%2Fdashboard&callbackUrl=%25zz");
    expect(repeated.status).toBe(200);
    const jar = new CookieJar();
    jar.store(new Response(null, { headers: { "set-cookie": `next-auth.callback-url=${encodeURIComponent("http://[")}` } }));
    const page = await send("/api/auth/signin", { jar });
    expect(page.status).toBe(302);
    jar.store(page);
    expect([origin, home]).toContain(decodeURIComponent(/next-auth\.callback-url=([^;]*)/.exec(jar.header())![1]!));
  });
});
