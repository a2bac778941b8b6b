// Where the login is kept, and which server and token a command uses. HTMLDROP_URL and HTMLDROP_TOKEN
// win over the stored login (CI sets them as secrets); the stored token is only ever sent to the server
// it was issued by.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CliError, EXIT, usageError } from "./errors";

export type StoredLogin = { url: string; token: string };

/** `$XDG_CONFIG_HOME/htmldrop` (default `~/.config/htmldrop`); `%APPDATA%\htmldrop` on Windows. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === "win32" && env.APPDATA) return join(env.APPDATA, "htmldrop");
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "htmldrop");
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), "config.json");
}

export function readLogin(): StoredLogin | null {
  let text: string;
  try {
    text = readFileSync(configFile(), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CliError(`Cannot read ${configFile()}: ${(error as Error).message}`, EXIT.usage);
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoredLogin>;
    if (typeof parsed.url === "string" && typeof parsed.token === "string") return { url: parsed.url, token: parsed.token };
  } catch {
    // Reported below, like a file of the wrong shape.
  }
  throw new CliError(`${configFile()} is not a login this command wrote; delete it and run htmldrop login again.`, EXIT.usage);
}

/** Written to a new file that only this user can read, then renamed over the old one. */
export function storeLogin(login: StoredLogin): string {
  const file = configFile();
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFileSync is narrowed by the umask but never widened by it; be exact anyway.
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  return file;
}

export function forgetLogin(): void {
  rmSync(configFile(), { force: true });
}

/** `https://drops.example.com/` and `https://drops.example.com` are one server. */
export function normalizeUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`"${text}" is not a URL; give the server's address, like https://drops.example.com.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw usageError(`"${text}" is not an http or https URL.`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

export type Target = { url: string; token: string };

/** The server and token for a command that needs both. */
export function resolveTarget(): Target {
  const stored = readLogin();
  const envUrl = process.env.HTMLDROP_URL;
  const url = envUrl ? normalizeUrl(envUrl) : stored?.url;
  if (!url) throw new CliError("Not logged in: run htmldrop login --url <server>, or set HTMLDROP_URL and HTMLDROP_TOKEN.", EXIT.auth);
  const envToken = process.env.HTMLDROP_TOKEN;
  if (envToken) return { url, token: envToken.trim() };
  if (stored && stored.url === url) return { url, token: stored.token };
  throw new CliError(`Not logged in to ${url}: run htmldrop login, or set HTMLDROP_TOKEN.`, EXIT.auth);
}
