// The one check every door (REST routes, MCP tools) runs before an operation, from what the registry
// says the operation needs: its scope, then its relation to drops.
import type { Caller } from "@/lib/accounts/credentials";
import { describeDropLimit, type Scope } from "@/lib/accounts/scopes";
import { ApiError } from "@/lib/errors";
import type { Operation } from "./operations";

/** 403 forbidden with details.required_scope unless the credential carries `scope`. */
function requireScope(caller: Caller, scope: Scope): void {
  if (!caller.scopes.includes(scope)) {
    throw new ApiError("forbidden", `This token lacks the ${scope} scope this call needs (it has: ${caller.scopes.join(", ") || "no scopes"}).`, {
      required_scope: scope,
    });
  }
}

/**
 * A drop-limited credential may act only on the drops it names: any other slug is forbidden, whether or
 * not such a drop exists, so the answer says nothing about drops it cannot see.
 */
function requireDropAccess(caller: Caller, slug: string): void {
  if (caller.drops !== null && !caller.drops.includes(slug)) {
    throw new ApiError("forbidden", `This token may only touch ${describeDropLimit(caller.drops)}, not ${slug.slice(0, 80)}.`, { allowed_drops: [...caller.drops] });
  }
}

/**
 * A drop-limited credential cannot create drops (the new one would be outside its list), nor change the
 * account's patterns, which shape every drop its agents write.
 */
function requireEveryDrop(caller: Caller, refused = "create new drops"): void {
  if (caller.drops !== null) {
    throw new ApiError("forbidden", `This token is limited to ${describeDropLimit(caller.drops)} and cannot ${refused}.`, { allowed_drops: [...caller.drops] });
  }
}

/** What an account-wide operation of each tag does, for a drop-limited token's refusal. */
const ACCOUNT_WIDE: Partial<Record<string, string>> = { Webhooks: "manage the account's webhooks", Account: "change the account's notification settings" };

export function authorize(caller: Caller, operation: Operation, slug?: string): void {
  const access = operation.access;
  if (!access) throw new Error(`${operation.operationId} takes no bearer token`);
  if (access.scope) requireScope(caller, access.scope);
  if (access.drop === "create") requireEveryDrop(caller);
  if (access.drop === "account") requireEveryDrop(caller, ACCOUNT_WIDE[operation.tag] ?? "change the account's patterns");
  // A call without a slug string fails its own validation afterwards; it never reaches a drop.
  if (access.drop === "slug" && typeof slug === "string") requireDropAccess(caller, slug);
}
