// tokens: list, create (the one place a token is printed) and revoke.
import { connect } from "./api";
import { formatTime, note, print, printJson, printTable } from "./output";
import { parseTokenExpiry } from "./parse";
import type { CreatedToken, TokenItem } from "./types";

export async function listTokens(options: { json?: boolean }): Promise<void> {
  const tokens = await connect().json<TokenItem[]>("/api/tokens");
  if (options.json) return printJson(tokens);
  printTable(
    ["ID", "LABEL", "SCOPES", "CREATED", "LAST USED", "STATE"],
    tokens.map((token) => [
      token.id,
      token.label ?? "",
      token.scopes.join(","),
      formatTime(token.created_at),
      token.last_used_at === null ? "never" : formatTime(token.last_used_at),
      token.revoked_at !== null ? "revoked" : token.expires_at !== null && token.expires_at <= Date.now() ? "expired" : "active",
    ]),
  );
}

export type CreateTokenOptions = { label?: string; scope?: string[]; drop?: string[]; expires?: string; json?: boolean };

export async function createToken(options: CreateTokenOptions): Promise<void> {
  const created = await connect().json<CreatedToken>("/api/tokens", {
    method: "POST",
    body: {
      ...(options.label !== undefined ? { label: options.label } : {}),
      ...(options.scope?.length ? { scopes: options.scope } : {}),
      ...(options.drop?.length ? { drops: options.drop } : {}),
      ...(options.expires !== undefined ? { expires_at: parseTokenExpiry(options.expires, Date.now()) } : {}),
    },
  });
  if (options.json) return printJson(created);
  note(`Created token ${created.id} with ${created.scopes.join(", ")}${created.expires_at === null ? "" : `, expiring ${formatTime(created.expires_at)}`}. It is shown only now:`);
  print(created.token);
}

export async function revokeToken(id: string): Promise<void> {
  await connect().json(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
  print(`Revoked ${id}.`);
}
