import { createHmac, createPrivateKey } from "node:crypto";
import Provider, { errors, type Configuration, type JWK, type KoaContextWithOIDC } from "oidc-provider";
// Up a floor, deliberately: the scope vocabulary, which imports nothing.
import { SCOPES } from "@/lib/accounts/scopes";
import { getConfig } from "@/lib/config";
import { DatabaseAdapter } from "./adapter";
import { ACCESS_TOKEN_TTL_SECONDS, consentPath, OAUTH_ROUTES, REFRESH_TOKEN_TTL_SECONDS } from "./endpoints";
import { clientMetadataSizeProblem, publicClientRedirectProblem } from "./client-policy";
import { renderOAuthError } from "./error-page";
import { publicOnlyDispatcher } from "./metadata-fetch";
import { resourceNamed } from "./resources";

const OPAQUE_TOKEN_BITS = 384;
const AUTHORIZATION_CODE_TTL_SECONDS = 60;
const INTERACTION_TTL_SECONDS = 600;
const GRANT_TTL_SECONDS = 365 * 86_400;

function derive(label: string): Buffer {
  return createHmac("sha256", getConfig().authSecret).update(`htmldrop oauth ${label}`).digest();
}

function cookieKey(): string {
  return derive("cookie key").toString("base64url");
}

/** How Koa (keygrip) signs oidc-provider's cookies: HMAC-SHA1 of `name=value` under the first key, base64url. */
export function cookieSignature(name: string, value: string): string {
  return createHmac("sha1", cookieKey()).update(`${name}=${value}`).digest("base64url");
}

// PKCS#8 header of an Ed25519 private key; the 32-byte seed follows.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * The ID-token signing key, derived from AUTH_SECRET so every instance signs with the same key without
 * a key store. htmldrop's own tokens are opaque; this key only signs ID tokens of clients that ask for openid.
 */
function signingKey(): JWK {
  const seed = derive("id-token signing key");
  const jwk = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" }).export({ format: "jwk" });
  return { ...jwk, kid: createHmac("sha256", seed).update("kid").digest("base64url").slice(0, 16), use: "sig", alg: "EdDSA" } as JWK;
}

/**
 * Outside development, Client ID Metadata Documents come only from public addresses: oidc-provider's
 * own guard checks the address after connecting, so htmldrop's dispatcher replaces it and checks before
 * (lib/oauth/metadata-fetch.ts). On a loopback PUBLIC_URL (your own machine, tests) any address is fetched.
 */
async function fetchClientMetadata(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const { dispatcher: _connectsFirst, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
  return fetch(input, getConfig().production ? ({ ...rest, dispatcher: publicOnlyDispatcher() } as RequestInit) : rest);
}

function configuration(): Configuration {
  return {
    adapter: DatabaseAdapter,
    clients: [],
    routes: OAUTH_ROUTES,
    // Public clients only: PKCE stands in for a client secret.
    clientAuthMethods: ["none"],
    clientDefaults: { token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], id_token_signed_response_alg: "EdDSA" },
    responseTypes: ["code"],
    // 64-character codes and tokens: longer than any API token can be, so a bearer value is never ambiguous.
    formats: { bitsOfOpaqueRandomness: OPAQUE_TOKEN_BITS },
    pkce: { required: () => true },
    enabledJWA: { idTokenSigningAlgValues: ["EdDSA"] },
    jwks: { keys: [signingKey()] },
    cookies: { keys: [cookieKey()] },
    // Registrations and metadata documents may name the drops and tokens scopes; they are granted per resource.
    scopes: ["openid", "offline_access", ...SCOPES],
    claims: { openid: ["sub"] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: "draft-02",
        allowClient: (_ctx, client) => !publicClientRedirectProblem(client.redirectUris ?? []) && !clientMetadataSizeProblem(client.metadata()),
      },
      resourceIndicators: {
        enabled: true,
        // RFC 8707 indicators are required: an authorization request must name /mcp (or /api).
        defaultResource: () => {
          throw new errors.InvalidTarget("the resource parameter is required: name the protected resource, for example the /mcp URL");
        },
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (!resourceNamed(resourceIndicator)) throw new errors.InvalidTarget(`${resourceIndicator} is not a resource of this server`);
          return { scope: SCOPES.join(" "), audience: resourceIndicator, accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS, accessTokenFormat: "opaque" };
        },
      },
    },
    fetch: fetchClientMetadata,
    fetchResponseBodyLimits: { "client_id metadata document": 5 * 1024 },
    // Consent is asked on every authorization: a remembered grant would let any page that knows a
    // client id mint codes for the signed-in human.
    loadExistingGrant: (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    interactions: { url: (_ctx, interaction) => consentPath(interaction.uid) },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      Interaction: INTERACTION_TTL_SECONDS,
      Session: INTERACTION_TTL_SECONDS,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: GRANT_TTL_SECONDS,
      IdToken: ACCESS_TOKEN_TTL_SECONDS,
    },
    renderError: renderOAuthError,
  };
}

const REFUSAL = "htmldropAuthorizationRefusal";
type Refusal = { error?: string; message: string; error_description?: string; expose?: boolean; statusCode?: number };

/**
 * RFC 9700 §4.11.2: before the human has answered, an authorization request's errors (prompt=none, a
 * malformed code_challenge, an unknown resource) are shown on htmldrop's own error page. oidc-provider
 * would send them to the client's redirect URI, which makes /oauth/authorize an open redirector.
 * The first request only ever leads to the consent page; the resume after it may answer the client.
 */
function keepRefusalsHome(provider: Provider): void {
  const remember = (ctx: KoaContextWithOIDC, error: Refusal) => {
    ctx.state[REFUSAL] = error;
  };
  provider.on("authorization.error", remember);
  provider.on("server_error", remember);
  provider.use(async (ctx, next) => {
    await next();
    const refusal = ctx.state[REFUSAL] as Refusal | undefined;
    if (!refusal || (ctx as KoaContextWithOIDC).oidc?.route !== "authorization") return;
    ctx.remove("location");
    // prompt=none's errors carry 303, the status of the redirect oidc-provider meant to send.
    ctx.status = refusal.expose ? Math.max(refusal.statusCode ?? 400, 400) : 500;
    const out = refusal.expose
      ? { error: refusal.error ?? refusal.message, error_description: refusal.error_description }
      : { error: "server_error", error_description: "Something went wrong on our side; start the connection again." };
    renderOAuthError(ctx as KoaContextWithOIDC, out);
  });
}

const PROVIDER_KEY = Symbol.for("htmldrop.oauthProvider");
type ProviderHolder = { [PROVIDER_KEY]?: Provider };

/** One provider per process; all its state is in the database, so instances are interchangeable. */
export function oauthProvider(): Provider {
  const holder = globalThis as ProviderHolder;
  if (!holder[PROVIDER_KEY]) {
    const provider = new Provider(getConfig().publicUrl, configuration());
    // Requests reach it through lib/oauth/bridge.ts, which sets Host and the scheme from PUBLIC_URL.
    provider.proxy = true;
    keepRefusalsHome(provider);
    holder[PROVIDER_KEY] = provider;
  }
  return holder[PROVIDER_KEY];
}
