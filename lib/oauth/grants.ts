import { SCOPES, type Scope } from "@/lib/accounts/scopes";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { randomString } from "@/lib/security/random";
import { constantTimeEqual } from "@/lib/security/tokens";
import { DatabaseAdapter } from "./adapter";
import { oauthProvider } from "./provider";
import { resourceNamed, type ResourceName } from "./resources";

const OIDC_SCOPES = new Set(["openid", "offline_access"]);

/** What the consent page shows. Everything about the client is what the client says: untrusted text. */
export type ConsentRequest = {
  uid: string;
  clientId: string;
  clientName: string | null;
  /** Where the approval sends the code: a host, or an app's own scheme. */
  redirectTarget: string;
  scopes: Scope[];
  resources: ResourceName[];
};

function requestedScopes(scope: unknown): Scope[] {
  const asked = new Set(typeof scope === "string" ? scope.split(" ") : []);
  return SCOPES.filter((name) => asked.has(name));
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
  if (!interaction || interaction.result) return null;
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

export type GrantRow = {
  id: string;
  clientId: string;
  clientName: string | null;
  scopes: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export async function listGrants(userId: string): Promise<GrantRow[]> {
  return db().oAuthGrant.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
}

/** Ends one of the caller's grants. Returns false when the id names none of them. */
export async function revokeGrant(userId: string, id: string): Promise<boolean> {
  const grant = await db().oAuthGrant.findUnique({ where: { id }, select: { userId: true, grantId: true } });
  if (!grant || grant.userId !== userId) return false;
  // Every code and token of the grant goes, and the grant itself: the client must ask the human again.
  await new DatabaseAdapter("Grant").revokeByGrantId(grant.grantId);
  return true;
}

/** oidc-provider's interaction ids: 21 url-safe characters, more or less; anything else is not one. */
export function isInteractionUid(uid: string): boolean {
  return /^[A-Za-z0-9_-]{16,64}$/.test(uid);
}

/**
 * oidc-provider sets the `_interaction` cookie (path-scoped to the consent page) in the browser that
 * began the authorization; only that browser may answer it.
 */
export function interactionBelongsToBrowser(uid: string, cookieValue: string | undefined): boolean {
  return cookieValue !== undefined && constantTimeEqual(cookieValue, uid);
}
