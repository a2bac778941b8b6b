// A dashboard session without a browser, and the ids of the build's server actions, for tests that
// post to the dashboard's and /verify's server actions directly.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TestApp } from "./app";
import { signInThroughProvider } from "./identity-provider";

/** Signs `login` in the way this app offers (see TestApp.signsInThrough); returns the session cookie. */
export async function signInAs(app: TestApp, login: string): Promise<string> {
  return app.signsInThrough === "identity-provider" ? signInThroughProvider(app, login) : signInLocally(app, login);
}

/** next-auth's local sign-in (on by default on a loopback address); returns the session cookie. */
async function signInLocally(app: TestApp, login: string): Promise<string> {
  return `next-auth.session-token=${(await localSignInCookies(app, login)).get("next-auth.session-token")}`;
}

/**
 * next-auth's local sign-in over HTTP; returns every cookie it set by name: the session's (always: it
 * throws without one), and the CSRF token's, which a browser that signed in through the pages holds too
 * (the sign-out page needs it).
 */
export async function localSignInCookies(app: TestApp, login: string): Promise<Map<string, string>> {
  const base = `http://127.0.0.1:${app.env.PORT}`;
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      const separator = pair.indexOf("=");
      cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
  };
  const csrf = await fetch(`${base}/api/auth/csrf`);
  keep(csrf);
  const form = new URLSearchParams({ csrfToken: ((await csrf.json()) as { csrfToken: string }).csrfToken, username: login, callbackUrl: "/dashboard" });
  const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const answer = await fetch(`${base}/api/auth/callback/credentials`, { method: "POST", body: form, headers: { cookie }, redirect: "manual" });
  keep(answer);
  if (!cookies.has("next-auth.session-token")) throw new Error(`the local sign-in gave no session (status ${answer.status})`);
  return cookies;
}

/** Server action ids of the current build, by exported function name. */
export function serverActionIds(): Record<string, string> {
  const file = join(import.meta.dirname, "..", "..", ".next", "server", "server-reference-manifest.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { node: Record<string, { exportedName: string }> };
  return Object.fromEntries(Object.entries(manifest.node).map(([id, entry]) => [entry.exportedName, id]));
}
