// Drives the device-code flow over HTTP the way a browser without JavaScript would: next-auth's
// credentials sign-in (the local dev provider), then the /verify page's approve form (a server action).

/** A minimal cookie jar for one host: enough for next-auth's csrf and session cookies. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }
}

export type Browserless = { origin: string; jar: CookieJar; client: string };

async function send(session: Browserless, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = session.jar.header();
  if (cookie) headers.set("cookie", cookie);
  headers.set("x-forwarded-for", session.client);
  const response = await fetch(`${session.origin}${path}`, { ...init, headers, redirect: "manual" });
  session.jar.store(response);
  return response;
}

/** Signs in with the local username provider; the jar then holds a next-auth session. */
export async function signInLocally(origin: string, username: string, client = "127.0.0.10"): Promise<Browserless> {
  const session: Browserless = { origin, jar: new CookieJar(), client };
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
export async function approveOverHttp(session: Browserless, code: string): Promise<{ status: number; location: string | null; page: string }> {
  const html = await getVerifyPage(session, code);
  const form = /<form[^>]*method="POST"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no approve form on the page:\n${html.slice(0, 2000)}`);
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
