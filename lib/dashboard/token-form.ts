// The dashboard's "New token" form: what it offers, how its fields become a POST /api/tokens body, and
// the ready-to-paste snippets shown once with the new secret.
import { isScope } from "@/lib/accounts/scopes";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import type { DiscoveryFacts } from "@/lib/discovery/facts";
import { mcpConfigSnippet } from "@/lib/discovery/onboard";
import { createTokenBodySchema, type CreatedTokenJson, type CreateTokenBody } from "@/lib/schemas/accounts";
import { parseInput } from "@/lib/schemas/errors";
import { toFormState, type FormState } from "./form-state";
import { formText as text } from "./text-upload";

/** Lifetimes the form offers, in days; "never" is the other choice. */
export const EXPIRY_CHOICES_DAYS = [7, 30, 90] as const;
export const DEFAULT_EXPIRY = "30";

/** How long each way of getting a token lasts, said where tokens are made and listed. */
export const TOKEN_LIFETIMES = {
  here: (days: string) => `Tokens made here expire in ${days} days unless you choose otherwise.`,
  deviceCode: "Tokens an agent gets by signing in with a device code (approved on /verify) never expire: revoke them here when the machine is lost or retired.",
};

const DAY_MS = 86_400_000;

export type DropChoice = { slug: string; title: string };

/** The drops a new token can be limited to: every drop of the account, most recently changed first. */
export async function listDropChoices(userId: string): Promise<DropChoice[]> {
  return db().drop.findMany({ where: { ownerId: userId }, select: { slug: true, title: true }, orderBy: [{ updatedAt: "desc" }, { id: "asc" }] });
}

function strings(form: FormData, name: string): string[] {
  return form.getAll(name).filter((value): value is string => typeof value === "string");
}

/** Reads the form into the API's body and validates it with the same schema as POST /api/tokens. */
export function tokenRequestFromForm(form: FormData): CreateTokenBody {
  const scopes = strings(form, "scopes");
  if (scopes.length === 0) throw new ApiError("invalid_arg", "Choose at least one scope.");
  if (!scopes.every(isScope)) throw new ApiError("invalid_arg", "The form named a scope that does not exist; reload the page.");

  let drops: string[] | undefined;
  if (text(form, "drop_limit") === "some") {
    drops = strings(form, "drops");
    if (drops.length === 0) throw new ApiError("invalid_arg", "Choose at least one drop, or let the token reach every drop.");
  }

  const expires = text(form, "expires");
  let expiresAt: number | null;
  if (expires === "never") expiresAt = null;
  else if ((EXPIRY_CHOICES_DAYS as readonly number[]).includes(Number(expires))) expiresAt = now() + Number(expires) * DAY_MS;
  else throw new ApiError("invalid_arg", "Choose when the token expires.");

  const label = text(form, "label").trim();
  return parseInput(createTokenBodySchema, { ...(label ? { label } : {}), scopes, ...(drops ? { drops } : {}), expires_at: expiresAt });
}

export type TokenSnippets = { mcp: string; cli: string };

/**
 * The onboarding guide's MCP configuration and a shell session, with the new secret written in where the
 * guide names its environment variable, so both paste as they are.
 */
export function tokenSnippets(facts: DiscoveryFacts, token: string): TokenSnippets {
  const mcp = mcpConfigSnippet(facts);
  mcp.mcpServers[facts.name]!.headers.Authorization = `Bearer ${token}`;
  const cli = [
    `export ${facts.tokenEnvVar}='${token}'`,
    `curl -s "${facts.publicUrl}/api/me" -H "Authorization: Bearer $${facts.tokenEnvVar}"`,
    `curl -s "${facts.publicUrl}/api/drops" -H "Authorization: Bearer $${facts.tokenEnvVar}"`,
  ].join("\n");
  return { mcp: JSON.stringify(mcp, null, 2), cli };
}

/** What the fields held, so a refused form comes back filled in even without JavaScript. */
export type TokenValues = { label: string; scopes: string[]; dropLimit: string; drops: string[]; expires: string };

export function tokenValuesFromForm(form: FormData): TokenValues {
  return { label: text(form, "label"), scopes: strings(form, "scopes"), dropLimit: text(form, "drop_limit"), drops: strings(form, "drops"), expires: text(form, "expires") };
}

/** What the form shows after a token is created: the secret, once, with its snippets; or a refusal and what was chosen. */
export type NewTokenState = FormState & {
  created?: CreatedTokenJson & { snippets: TokenSnippets };
  values?: TokenValues;
};

/** A refusal as "New token" shows it, with the choices as they were. */
export function tokenErrorState(error: unknown, form: FormData): NewTokenState {
  return { ...toFormState(error), values: tokenValuesFromForm(form) };
}
