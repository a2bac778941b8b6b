// One scope vocabulary for every kind of credential (API tokens, device-code grants, OAuth grants); what
// each operation needs is in the registry (lib/api/operations.ts), checked by lib/api/authorize.ts.
// Credentials from before scopes existed carry all three, so they keep doing everything.

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
