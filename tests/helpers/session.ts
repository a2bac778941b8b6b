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
  const base = `http://127.0.0.1:${app.env.PORT}`;
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const form = new URLSearchParams({ csrfToken: ((await csrf.json()) as { csrfToken: string }).csrfToken, username: login, callbackUrl: "/dashboard" });
  const answer = await fetch(`${base}/api/auth/callback/credentials`, { method: "POST", body: form, headers: { cookie }, redirect: "manual" });
  const session = answer.headers.getSetCookie().find((line) => line.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`the local sign-in gave no session (status ${answer.status})`);
  return session.split(";")[0]!;
}

/** Server action ids of the current build, by exported function name. */
export function serverActionIds(): Record<string, string> {
  const file = join(import.meta.dirname, "..", "..", ".next", "server", "server-reference-manifest.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { node: Record<string, { exportedName: string }> };
  return Object.fromEntries(Object.entries(manifest.node).map(([id, entry]) => [entry.exportedName, id]));
}
