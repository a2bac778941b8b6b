// What an authenticated credential is, whichever kind was presented (an API token or an OAuth grant):
// the vocabulary the bearer facade produces and authorization checks, resting on the scope list alone.
import { SCOPES, type Scope } from "./scopes";

/**
 * Who is calling, and what the credential lets it do. Every door (REST, MCP) authenticates into this
 * and checks it with lib/api/authorize.ts. `tokenId` is an API token's id, or an OAuth grant's id.
 */
export type Caller = {
  userId: string;
  tokenId: string;
  kind: "api_token" | "oauth";
  scopes: readonly Scope[];
  /** The only drops the credential may touch; null = every drop of the account. */
  drops: readonly string[] | null;
  expiresAt: number | null;
};

/** What a credential may do: the part of a Caller that is handed on to the tokens it creates. */
export type Grant = Pick<Caller, "scopes" | "drops" | "expiresAt">;

/** Today's tokens, the admin command's and the device flow's defaults: everything, for every drop, forever. */
export const FULL_GRANT: Grant = { scopes: SCOPES, drops: null, expiresAt: null };

/** A credential's last_used_at is refreshed at most this often, so reads stay reads. */
export const LAST_USED_RESOLUTION_MS = 60_000;
