// Up a floor, deliberately: the scope vocabulary, which imports nothing.
import { parseStoredScopes, type Scope } from "@/lib/accounts/scopes";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { randomString } from "@/lib/security/random";
import { constantTimeEqual } from "@/lib/security/tokens";
import { keepClient } from "./adapter";
import { redirectUriProblem } from "./client-policy";
import { cookieSignature, oauthProvider } from "./provider";
import { resourceNamed, type ResourceName } from "./resources";

const OIDC_SCOPES = new Set(["openid", "offline_access"]);

/** What the consent page shows. Everything about the client is what the client says: untrusted text. */
export type ConsentRequest = {
  uid: string;
  clientId: string;
  clientName: string | null;
  /** Where the approval sends the code: a host, or an app's own scheme. */
  redirectTarget: string;
  /** Why this request cannot be answered at all (a redirect to htmldrop itself), or null. */
  refusal: string | null;
  scopes: Scope[];
  resources: ResourceName[];
};

function requestedScopes(scope: unknown): Scope[] {
  return typeof scope === "string" ? parseStoredScopes(scope) : [];
}

/** The resource URLs an authorization asked for that name one of htmldrop's resources. */
function requestedResourceUrls(resource: unknown): string[] {
  const urls = Array.isArray(resource) ? resource : [resource];
  return urls.filter((url): url is string => typeof url === "string" && resourceNamed(url) !== null);
}

function redirectTarget(uri: unknown): string {
  const url = typeof uri === "string" ? URL.parse(uri) : null;
  if (!url) return "an unknown address";
  return url.protocol === "http:" || url.protocol === "https:" ? url.host : `${url.protocol}//`;
}

/**
 * A client registered before htmldrop refused its own origin as a redirect, or a native client's loopback
 * redirect on the port htmldrop itself listens on, would carry the code to a page of htmldrop: never answered.
 */
function redirectRefusal(uri: unknown): string | null {
  return typeof uri === "string" ? redirectUriProblem(uri) : null;
}

/** The pending authorization behind a consent page, or null once it is finished or expired. */
export async function describeConsent(uid: string): Promise<ConsentRequest | null> {
  const provider = oauthProvider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.result) return null;
  const { params } = interaction;
  const clientId = String(params.client_id);
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) return null;
  return {
    uid,
    clientId,
    clientName: client.clientName ?? null,
    redirectTarget: redirectTarget(params.redirect_uri),
    refusal: redirectRefusal(params.redirect_uri),
    scopes: requestedScopes(params.scope),
    resources: requestedResourceUrls(params.resource).map((url) => resourceNamed(url)!),
  };
}

async function unusedCredentialId(): Promise<string> {
  for (;;) {
    const id = randomString(12, "0123456789abcdef");
    // Grants and API tokens share one id space: DELETE /api/tokens/{id} ends either.
    const [token, grant] = await Promise.all([
      db().apiToken.findUnique({ where: { id }, select: { id: true } }),
      db().oAuthGrant.findUnique({ where: { id }, select: { id: true } }),
    ]);
    if (!token && !grant) return id;
  }
}

/**
 * The human's answer on the consent page. Approving records a grant of exactly the scopes asked for,
 * for the resources asked for; either way the interaction resumes at oidc-provider, which sends the
 * browser back to the client. Returns where to send the browser, or null when the request is gone.
 */
export async function decideConsent(input: { uid: string; userId: string; approve: boolean }): Promise<string | null> {
  const provider = oauthProvider();
  const interaction = await provider.Interaction.find(input.uid);
  if (!interaction || interaction.result || redirectRefusal(interaction.params.redirect_uri)) return null;
  const ttl = Math.max(1, interaction.exp - Math.floor(Date.now() / 1000));
  if (!input.approve) {
    interaction.result = { error: "access_denied", error_description: "The account owner denied the request." };
    await interaction.save(ttl);
    return interaction.returnTo;
  }
  const { params } = interaction;
  const clientId = String(params.client_id);
  const client = await provider.Client.find(clientId);
  if (!client) return null;
  const scopes = requestedScopes(params.scope);
  const resources = requestedResourceUrls(params.resource);

  const grant = new provider.Grant({ accountId: input.userId, clientId });
  // oidc-provider checks every requested scope against the grant's own list too, not only the resource's.
  const oidcScopes = (typeof params.scope === "string" ? params.scope.split(" ") : []).filter((name) => OIDC_SCOPES.has(name));
  if (oidcScopes.length + scopes.length > 0) grant.addOIDCScope([...oidcScopes, ...scopes]);
  for (const resource of resources) grant.addResourceScope(resource, scopes);
  const grantId = await grant.save();
  await keepClient(clientId);
  await db().oAuthGrant.create({
    data: {
      id: await unusedCredentialId(),
      grantId,
      userId: input.userId,
      clientId,
      clientName: client.clientName?.slice(0, 200) ?? null,
      scopes: scopes.join(" "),
      resource: resources.join(" "),
      createdAt: new Date(now()),
    },
  });

  interaction.result = { login: { accountId: input.userId }, consent: { grantId } };
  await interaction.save(ttl);
  return interaction.returnTo;
}

/** oidc-provider's interaction ids: 21 url-safe characters, more or less; anything else is not one. */
export function isInteractionUid(uid: string): boolean {
  return /^[A-Za-z0-9_-]{16,64}$/.test(uid);
}

const INTERACTION_COOKIE = "_interaction";

/**
 * oidc-provider sets the `_interaction` cookie (path-scoped to the consent page), signed in
 * `_interaction.sig`, in the browser that began the authorization; only that browser may answer it.
 * The uid is in the URL, so the value is checked with its signature, as oidc-provider checks its own cookies.
 */
export function interactionBelongsToBrowser(uid: string, cookies: { get(name: string): { value: string } | undefined }): boolean {
  const value = cookies.get(INTERACTION_COOKIE)?.value;
  const signature = cookies.get(`${INTERACTION_COOKIE}.sig`)?.value;
  return value !== undefined && signature !== undefined && constantTimeEqual(value, uid) && constantTimeEqual(signature, cookieSignature(INTERACTION_COOKIE, value));
}
