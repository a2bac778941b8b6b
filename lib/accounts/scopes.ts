// One scope model for every kind of credential (API tokens, device-code grants, OAuth grants), and the
// rules every door (REST routes, MCP tools) applies with it. Credentials from before scopes existed carry
// all three, so they keep doing everything.
import { ApiError } from "@/lib/errors";
import type { Caller } from "./tokens";

export const SCOPES = ["drops:read", "drops:write", "tokens:manage"] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope lets a credential do, in the words the consent and dashboard pages use. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "drops:read": "Read your drops, their versions and their context, and your patterns",
  "drops:write": "Publish, change and delete drops, versions, passcodes and your patterns",
  "tokens:manage": "List, create and revoke your API tokens and connected apps",
};

export function isScope(value: unknown): value is Scope {
  return typeof value === "string" && (SCOPES as readonly string[]).includes(value);
}

/** Scopes in canonical order, each once. */
export function normalizeScopes(scopes: Iterable<Scope>): Scope[] {
  const given = new Set(scopes);
  return SCOPES.filter((scope) => given.has(scope));
}

/** Stored as space-separated words, like an OAuth scope string; a word this release does not know grants nothing. */
export function parseStoredScopes(text: string): Scope[] {
  return normalizeScopes(text.split(/\s+/).filter(isScope));
}

export function formatStoredScopes(scopes: Iterable<Scope>): string {
  return normalizeScopes(scopes).join(" ");
}

/** Drop slugs are stored space-separated too; null means every drop of the account. */
export function parseStoredDrops(text: string | null): string[] | null {
  return text === null ? null : text.split(/\s+/).filter(Boolean);
}

export function formatStoredDrops(drops: readonly string[] | null): string | null {
  return drops === null ? null : drops.join(" ");
}

export function describeDropLimit(drops: readonly string[]): string {
  return drops.length === 0 ? "no drop" : drops.length === 1 ? `drop ${drops[0]}` : `drops ${drops.join(", ")}`;
}

/**
 * What a call needs from its credential. `drop` says how the call relates to drops: `slug` acts on the
 * drop its path or arguments name, `create` makes a new one, `list` lists them (filtered to the
 * credential's drops), `account` changes what serves every drop (the account's patterns), `none` touches no drop.
 */
export type Access = { scope: Scope | null; drop: "slug" | "create" | "list" | "account" | "none" };

/**
 * Every REST operation that takes a bearer token, keyed as "METHOD /path". MCP tools name the REST
 * operation they mirror and are checked against the same entry, so both doors always agree.
 */
export const OPERATION_ACCESS = {
  "GET /api/me": { scope: null, drop: "none" },
  "GET /api/tokens": { scope: "tokens:manage", drop: "none" },
  "POST /api/tokens": { scope: "tokens:manage", drop: "none" },
  "DELETE /api/tokens/{id}": { scope: "tokens:manage", drop: "none" },
  "GET /api/drops": { scope: "drops:read", drop: "list" },
  "POST /api/drops": { scope: "drops:write", drop: "create" },
  "GET /api/drops/{slug}": { scope: "drops:read", drop: "slug" },
  "PUT /api/drops/{slug}": { scope: "drops:write", drop: "slug" },
  "PATCH /api/drops/{slug}": { scope: "drops:write", drop: "slug" },
  "DELETE /api/drops/{slug}": { scope: "drops:write", drop: "slug" },
  "GET /api/drops/{slug}/versions": { scope: "drops:read", drop: "slug" },
  "GET /api/drops/{slug}/stats": { scope: "drops:read", drop: "slug" },
  "GET /api/drops/{slug}/comments": { scope: "drops:read", drop: "slug" },
  "POST /api/drops/{slug}/comments": { scope: "drops:write", drop: "slug" },
  "PATCH /api/drops/{slug}/comments/{id}": { scope: "drops:write", drop: "slug" },
  "DELETE /api/drops/{slug}/comments/{id}": { scope: "drops:write", drop: "slug" },
  "GET /api/drops/{slug}/v/{n}": { scope: "drops:read", drop: "slug" },
  "GET /api/drops/{slug}/diff": { scope: "drops:read", drop: "slug" },
  "DELETE /api/drops/{slug}/v/{n}": { scope: "drops:write", drop: "slug" },
  "POST /api/drops/{slug}/passcode": { scope: "drops:write", drop: "slug" },
  "GET /api/patterns": { scope: "drops:read", drop: "none" },
  "GET /api/patterns/{name}": { scope: "drops:read", drop: "none" },
  "PUT /api/patterns/{name}": { scope: "drops:write", drop: "account" },
  "DELETE /api/patterns/{name}": { scope: "drops:write", drop: "account" },
} as const satisfies Record<string, Access>;

export type OperationKey = keyof typeof OPERATION_ACCESS;

export function isOperationKey(value: string): value is OperationKey {
  return Object.hasOwn(OPERATION_ACCESS, value);
}

/** 403 forbidden with details.required_scope unless the credential carries `scope`. */
export function requireScope(caller: Caller, scope: Scope): void {
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
export function requireDropAccess(caller: Caller, slug: string): void {
  if (caller.drops !== null && !caller.drops.includes(slug)) {
    throw new ApiError("forbidden", `This token may only touch ${describeDropLimit(caller.drops)}, not ${slug.slice(0, 80)}.`, { allowed_drops: [...caller.drops] });
  }
}

/**
 * A drop-limited credential cannot create drops (the new one would be outside its list), nor change the
 * account's patterns, which shape every drop its agents write.
 */
export function requireEveryDrop(caller: Caller, refused = "create new drops"): void {
  if (caller.drops !== null) {
    throw new ApiError("forbidden", `This token is limited to ${describeDropLimit(caller.drops)} and cannot ${refused}.`, { allowed_drops: [...caller.drops] });
  }
}

/** The one check every door runs before an operation: its scope, then its relation to drops. */
export function authorize(caller: Caller, operation: OperationKey, slug?: string): void {
  const access: Access = OPERATION_ACCESS[operation];
  if (access.scope) requireScope(caller, access.scope);
  if (access.drop === "create") requireEveryDrop(caller);
  if (access.drop === "account") requireEveryDrop(caller, "change the account's patterns");
  // A call without a slug string fails its own validation afterwards; it never reaches a drop.
  if (access.drop === "slug" && typeof slug === "string") requireDropAccess(caller, slug);
}
