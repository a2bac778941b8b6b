// login (the device-code flow), logout (revoke, then forget) and whoami.
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, connect } from "./api";
import { openInBrowser } from "./browser";
import { configFile, forgetLogin, normalizeUrl, readLogin, storeLogin, type StoredLogin } from "./config";
import { CliError, EXIT, usageError } from "./errors";
import { formatTime, note, noteEmphasis, print, printJson } from "./output";
import type { DevicePoll, DeviceStart, Me, TokenSummary } from "./types";

const LABEL_MAX_CHARS = 100;

export type LoginOptions = { url?: string; label?: string; scope?: string[]; browser: boolean };

export async function login(options: LoginOptions): Promise<void> {
  let stored: StoredLogin | null = null;
  try {
    stored = readLogin();
  } catch {
    // A file this command cannot read is replaced by the new login.
  }
  const given = options.url ?? process.env.HTMLDROP_URL ?? stored?.url;
  if (!given) throw usageError("Which server? Run htmldrop login --url https://drops.example.com.");
  const url = normalizeUrl(given);
  const anonymous = new Client(url, null);
  const label = (options.label ?? `htmldrop CLI on ${hostname()}`).slice(0, LABEL_MAX_CHARS);
  const start = await anonymous.json<DeviceStart>("/api/auth/start", {
    method: "POST",
    body: { label, ...(options.scope?.length ? { scopes: options.scope } : {}) },
  });

  note(`To sign in, open ${noteEmphasis(start.verification_url)}`);
  note(`and check that the page shows the code ${noteEmphasis(start.code)}.`);
  if (options.browser && openInBrowser(start.verification_url)) note("Opened it in your browser.");
  note("Waiting for you to approve…");

  const token = await pollForToken(anonymous, start);
  const file = storeLogin({ url, token });
  const me = await new Client(url, token).json<Me>("/api/me");
  print(`Logged in to ${url} as user ${me.user_id}.`);
  note(`The token is stored in ${file}, readable only by you.`);
  if (process.env.HTMLDROP_TOKEN) note("HTMLDROP_TOKEN is set in this shell and wins over the stored login until you unset it.");
}

async function pollForToken(client: Client, start: DeviceStart): Promise<string> {
  const deadline = Date.now() + start.expires_in * 1000;
  const query = new URLSearchParams({ token: start.poll_token });
  for (;;) {
    await sleep(start.poll_interval * 1000);
    const poll = await client.json<DevicePoll>("/api/auth/poll", { query });
    if (poll.status === "verified" && poll.api_token) return poll.api_token;
    if (poll.status === "denied") throw new CliError("The sign-in was denied in the browser.", EXIT.auth);
    if (poll.status === "claimed") throw new CliError("This sign-in's token was already collected by another client; run htmldrop login again.", EXIT.auth);
    if (poll.status === "expired" || Date.now() >= deadline) throw new CliError("The code expired before it was approved; run htmldrop login again.", EXIT.auth);
  }
}

export async function logout(): Promise<void> {
  const stored = readLogin();
  if (!stored) {
    note("Not logged in; nothing to forget.");
    return;
  }
  const client = new Client(stored.url, stored.token);
  try {
    const me = await client.json<Me>("/api/me");
    if (me.token) await client.json(`/api/tokens/${me.token.id}`, { method: "DELETE" });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    if (error.code === "forbidden") {
      forgetLogin();
      throw new CliError(`Forgot the token here, but the server did not revoke it: ${error.message} Revoke it on ${stored.url}/dashboard/tokens.`, EXIT.auth);
    }
    // Unknown, revoked or expired: the server no longer takes it, so forgetting it is all that is left.
    if (error.exitCode !== EXIT.auth) throw new CliError(`${error.message} The token is still stored; run htmldrop logout again.`, error.exitCode, error.code);
  }
  forgetLogin();
  print(`Logged out of ${stored.url}; the token is revoked and forgotten.`);
}

export function describeToken(token: TokenSummary): string {
  const parts = [`${token.label ?? "(no label)"} (${token.id})`, `scopes ${token.scopes.join(", ")}`];
  if (token.drops) parts.push(`only ${token.drops.join(", ")}`);
  parts.push(token.expires_at === null ? "never expires" : `expires ${formatTime(token.expires_at)}`);
  return parts.join("; ");
}

export async function whoami(options: { json?: boolean }): Promise<void> {
  const client = connect();
  const me = await client.json<Me>("/api/me");
  if (options.json) return printJson(me);
  print(`Server: ${client.url}`);
  print(`User:   ${me.user_id}`);
  print(`Drops:  ${me.drop_count}`);
  if (me.token) print(`Token:  ${describeToken(me.token)}`);
  print(`From:   ${process.env.HTMLDROP_TOKEN ? "HTMLDROP_TOKEN" : configFile()}`);
}
