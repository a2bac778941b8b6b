// Drives the device-code flow over HTTP the way a browser without JavaScript would: a next-auth sign-in
// (the local dev provider, or the identity provider when the app serves as Vercel does), then the
// /verify page's approve form (a server action).
import type { TestApp } from "./app";
import { CookieJar } from "./cookie-jar";
import { signInThroughProvider } from "./identity-provider";
import { PEER_ADDRESS_HEADER } from "./vercel-edge";

/** `client`: the address the requests come from, when not this machine's. */
export type Browserless = { origin: string; jar: CookieJar; client?: string };

async function send(session: Browserless, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = session.jar.header();
  if (cookie) headers.set("cookie", cookie);
  if (session.client) {
    // The client's address as a proxy the app trusts reports it, or as Vercel's edge sees the connection.
    headers.set("x-forwarded-for", session.client);
    headers.set(PEER_ADDRESS_HEADER, session.client);
  }
  const response = await fetch(`${session.origin}${path}`, { ...init, headers, redirect: "manual" });
  session.jar.store(response);
  return response;
}

/** Signs in as `username` from the address `client`; the jar then holds a next-auth session. */
export async function signInBrowserless(app: TestApp, username: string, client?: string): Promise<Browserless> {
  const session: Browserless = { origin: `http://127.0.0.1:${app.env.PORT}`, jar: new CookieJar(), client };
  if (app.signsInThrough === "identity-provider") {
    session.jar.store(new Response(null, { headers: [["set-cookie", await signInThroughProvider(app, username)]] }));
    return session;
  }
  const csrf = (await (await send(session, "/api/auth/csrf")).json()) as { csrfToken: string };
  const response = await send(session, "/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, username, callbackUrl: "/verify" }).toString(),
  });
  await response.arrayBuffer();
  if (response.status !== 302 || !session.jar.has("next-auth.session-token")) {
    throw new Error(`local sign-in as ${username} failed: ${response.status} ${response.headers.get("location")}`);
  }
  return session;
}

export async function getVerifyPage(session: Browserless, code: string): Promise<string> {
  const response = await send(session, `/verify?code=${encodeURIComponent(code)}`);
  if (response.status !== 200) throw new Error(`/verify answered ${response.status}`);
  return response.text();
}

function decodeEntities(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Submits the page's approve form as a browser without JavaScript does; returns where it redirected. */
export function approveOverHttp(session: Browserless, code: string): Promise<{ status: number; location: string | null; page: string }> {
  return decideOverHttp(session, code, "Approve this device");
}

/** Submits the page's Deny form, likewise. */
export function denyOverHttp(session: Browserless, code: string): Promise<{ status: number; location: string | null; page: string }> {
  return decideOverHttp(session, code, "Deny");
}

async function decideOverHttp(session: Browserless, code: string, button: string): Promise<{ status: number; location: string | null; page: string }> {
  const html = await getVerifyPage(session, code);
  const form = [...html.matchAll(/<form[^>]*method="POST"[^>]*>([\s\S]*?)<\/form>/gi)].find((match) => match[1]!.includes(`>${button}</button>`));
  if (!form) throw new Error(`no "${button}" form on the page:\n${html.slice(0, 2000)}`);
  const body = new FormData();
  for (const input of form[1]!.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    if (name) body.append(decodeEntities(name), decodeEntities(/value="([^"]*)"/.exec(input[0])?.[1] ?? ""));
  }
  const response = await send(session, `/verify?code=${encodeURIComponent(code)}`, { method: "POST", body, headers: { origin: session.origin } });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  const page = location ? await (await send(session, new URL(location, session.origin).pathname + new URL(location, session.origin).search)).text() : "";
  return { status: response.status, location, page };
}

/** An API token for the account `session` is signed in to, got as an agent gets one: start, approve, poll. */
export async function tokenThroughDeviceFlow(app: TestApp, session: Browserless, label = "test agent"): Promise<string> {
  const started = await app.api("/api/auth/start", { method: "POST", body: { label } });
  await approveOverHttp(session, started.body.code as string);
  const polled = await app.api(`/api/auth/poll?token=${encodeURIComponent(started.body.poll_token as string)}`);
  if (polled.body?.status !== "verified") throw new Error(`the device flow gave no token: ${polled.text}`);
  return polled.body.api_token as string;
}
