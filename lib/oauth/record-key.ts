import { hashSecret } from "@/lib/security/tokens";

/**
 * The database key of one oidc-provider record. Ids of codes, tokens and sessions are bearer secrets,
 * so only their keyed hash is stored, exactly as API tokens are.
 */
export function oauthRecordKey(model: string, id: string): string {
  return `${model}:${hashSecret(id)}`;
}
