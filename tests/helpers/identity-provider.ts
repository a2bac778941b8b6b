// A real OpenID Connect provider (oidc-provider) on loopback, and a sign-in through it without a browser:
// what a deployment without the local sign-in (Vercel) signs people in with. Its login step takes the
// user name from `login_hint` and its consent step grants what the client asked, so the code flow,
// discovery, token exchange and ID token checks are all real.
import { createServer, type Server } from "node:http";
import type { TestApp } from "./app";
import { CookieJar } from "./cookie-jar";

const CLIENT_ID = "htmldrop-test";
const CLIENT_SECRET = "test-client-secret-that-is-long-enough";

export type IdentityProvider = {
  /** The variables that point the app at this provider. */
  env: Record<string, string>;
  close(): Promise<void>;
};

/**
 * Who a login is to this provider. A login written as an email address (`carol@corp.test`) has that
 * address, verified, and is `carol`; `staff-…` logins are in the `staff` group. Others have no email.
 */
function accountClaims(sub: string): { sub: string; [claim: string]: unknown } {
  const at = sub.indexOf("@");
  const username = at < 0 ? sub : sub.slice(0, at);
  const email = at < 0 ? {} : { email: sub, email_verified: true, groups: username.startsWith("staff-") ? ["staff"] : [] };
  return { sub, preferred_username: username, name: `User ${username}`, ...email };
}

/** Starts a provider on `port` that trusts the app at `appBaseUrl` as a confidential client. */
export async function startIdentityProvider(port: number, appBaseUrl: string): Promise<IdentityProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  // Loaded here, not with the module: most test files import this one for its sign-in helper only, and
  // oidc-provider costs about half a second of CPU to load in every one of them.
  const { default: Provider } = await import("oidc-provider");
  const provider = new Provider(issuer, {
    clients: [
      { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${appBaseUrl}/api/auth/callback/oidc`], grant_types: ["authorization_code"], response_types: ["code"] },
    ],
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => accountClaims(sub) }),
    claims: { openid: ["sub"], profile: ["preferred_username", "name", "groups"], email: ["email", "email_verified"] },
    // As many providers do, the ID token carries the claims its scopes ask for (next-auth reads them there).
    conformIdTokenClaims: false,
    cookies: { keys: ["test-cookie-key"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const handleProtocol = provider.callback();
  const server: Server = createServer((request, response) => {
    if (!request.url?.startsWith("/interaction/")) return void handleProtocol(request, response);
    void (async () => {
      const { prompt, params, session, grantId } = await provider.interactionDetails(request, response);
      if (prompt.name === "login") {
        await provider.interactionFinished(request, response, { login: { accountId: String(params.login_hint) } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session!.accountId!, clientId: String(params.client_id) });
      grant!.addOIDCScope(String(params.scope));
      await provider.interactionFinished(request, response, { consent: { grantId: await grant!.save() } }, { mergeWithLastSubmission: true });
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  return {
    env: { AUTH_OIDC_ISSUER: issuer, AUTH_OIDC_ID: CLIENT_ID, AUTH_OIDC_SECRET: CLIENT_SECRET, AUTH_OIDC_NAME: "Test IdP" },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One jar per server (host and port); `localhost` and 127.0.0.1 are one host here. */
class Jars {
  private readonly byServer = new Map<string, CookieJar>();

  for(url: URL): CookieJar {
    const key = `${url.hostname === "localhost" ? "127.0.0.1" : url.hostname}:${url.port}`;
    let jar = this.byServer.get(key);
    if (!jar) this.byServer.set(key, (jar = new CookieJar()));
    return jar;
  }
}

/** Signs `login` in through the app's OIDC provider, following every redirect as a browser would; returns the session cookie. */
export async function signInThroughProvider(app: TestApp, login: string): Promise<string> {
  const { session, status, location } = await signInThroughProviderTo(app, login, "/dashboard");
  if (!session) throw new Error(`the sign-in through the identity provider gave no session (last: ${status} ${location})`);
  return `next-auth.session-token=${session}`;
}

/**
 * The same sign-in with the sign-in form's `callbackUrl`: returns the session (if one was made) and
 * where the app's OIDC callback sent the browser, with that answer's status.
 */
export async function signInThroughProviderTo(app: TestApp, login: string, callbackUrl: string): Promise<{ session?: string; status: number; location: string | null }> {
  const base = new URL(`http://127.0.0.1:${app.env.PORT}`);
  const jars = new Jars();
  const send = async (url: URL, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), cookie: jars.for(url).header() } });
    jars.for(url).store(response);
    return response;
  };
  const { csrfToken } = (await (await send(new URL("/api/auth/csrf", base))).json()) as { csrfToken: string };
  let response = await send(new URL(`/api/auth/signin/oidc?login_hint=${encodeURIComponent(login)}`, base), {
    method: "POST",
    body: new URLSearchParams({ csrfToken, callbackUrl }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  let url = base;
  // Through the provider and back, up to the app's callback, whose redirect is the destination.
  for (let hop = 0; hop < 12 && response.status >= 300 && response.status < 400 && url.pathname !== "/api/auth/callback/oidc"; hop++) {
    url = new URL(response.headers.get("location")!, url);
    response = await send(url);
  }
  await response.arrayBuffer();
  return { session: jars.for(base).get("next-auth.session-token"), status: response.status, location: response.headers.get("location") };
}
