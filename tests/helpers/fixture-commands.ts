// The commands that tests run for their fixtures, hundreds of times a run: `migrate` before
// `next start`, and the token minter (token-minter.ts) behind TestApp.createToken. Under tsx each run
// spent about a second of CPU compiling and loading the same TypeScript, so they are compiled once per
// test run. Tests of the operator commands themselves (TestApp.command) run them through tsx, as
// `npm run` does.
import { spawn } from "node:child_process";
import { once } from "node:events";
import type { Socket } from "node:net";
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..", "..");
// Inside the checkout, so the compiled files find the packages they leave external.
const COMPILED_DIR = join(ROOT, "node_modules", ".cache", "htmldrop-tests");
const FIXTURE_COMMANDS = {
  migrate: "scripts/migrate.ts",
  "token-minter": "tests/helpers/token-minter.ts",
} as const;

/** Set by a test run's global setup once it has compiled the commands, for the workers it starts. */
const COMPILED_THIS_RUN = "HTMLDROP_TEST_COMMANDS_COMPILED";

let compiling: Promise<void> | null = null;

/**
 * The compiled command: the test runs' global setup compiles them first (so that parallel workers never
 * write them at once); a benchmark, which starts the service through the same helpers, compiles them
 * on first use, never trusting what an earlier checkout's run left.
 */
export async function compiledCommand(name: keyof typeof FIXTURE_COMMANDS): Promise<string> {
  // One compilation per process, however many servers a benchmark starts at once.
  if (!process.env[COMPILED_THIS_RUN]) await (compiling ??= compileFixtureCommands());
  return join(COMPILED_DIR, `${name}.mjs`);
}

export async function compileFixtureCommands(): Promise<void> {
  await build({
    entryPoints: Object.fromEntries(Object.entries(FIXTURE_COMMANDS).map(([name, source]) => [name, join(ROOT, source)])),
    outdir: COMPILED_DIR,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    alias: { "@": ROOT },
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  // The Prisma clients read their query compilers from files beside them (scripts/prisma-generate.mjs),
  // which esbuild does not carry as Next's bundler does: beside the bundles, they are where they look.
  const generated = join(ROOT, "lib", "db", "generated");
  for (const client of readdirSync(generated)) {
    const internal = join(generated, client, "internal");
    for (const file of readdirSync(internal).filter((name) => name.endsWith(".wasm"))) copyFileSync(join(internal, file), join(COMPILED_DIR, file));
  }
  process.env[COMPILED_THIS_RUN] = "1";
}

/** Where the test run's token minter listens, set by the global setup for every worker it starts. */
const MINTER_URL = "HTMLDROP_TEST_TOKEN_MINTER";

/**
 * Starts token-minter.ts. It keeps the starting process alive only while `stop` is awaited, and exits
 * with it: its stdin closes then.
 */
async function startTokenMinter(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [await compiledCommand("token-minter")], { cwd: ROOT, env: process.env, stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line.startsWith("http://")) resolve(line);
    });
    child.once("exit", (code, signal) => reject(new Error(`the token minter exited (${signal ?? code})`)));
  });
  for (const handle of [child, child.stdin, child.stdout] as unknown as Socket[]) handle.unref();
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.ref();
      const exited = once(child, "exit");
      child.stdin.end();
      await exited;
    },
  };
}

let ownMinter: Promise<string> | null = null;

/** The run's token minter, or (in a benchmark, which has no global setup) this process's own, started on first use. */
async function minterUrl(): Promise<string> {
  return process.env[MINTER_URL] ?? (await (ownMinter ??= startTokenMinter().then((minter) => minter.url)));
}

async function askMinter(request: object): Promise<{ token?: string; error?: string }> {
  const response = await fetch(await minterUrl(), { method: "POST", body: JSON.stringify(request) });
  return (await response.json()) as { token?: string; error?: string };
}

/**
 * A new token for the local account `login`, created if need be, as `npm run admin -- token create`
 * makes it, in the database that `env` names; `database` identifies that database as it is now.
 */
export async function mintToken(database: string, env: NodeJS.ProcessEnv, login: string, label?: string): Promise<string> {
  const answer = await askMinter({ database, env, login, label });
  if (!answer.token) throw new Error(`the token minter refused: ${answer.error}`);
  return answer.token;
}

/** Lets the minter close its connection to `database` (its server is stopping). */
export async function releaseMinterDatabase(database: string): Promise<void> {
  await askMinter({ release: database });
}

/** For a run's global setup: one minter for every worker, stopped by the returned function. */
export async function startRunTokenMinter(): Promise<() => Promise<void>> {
  const minter = await startTokenMinter();
  process.env[MINTER_URL] = minter.url;
  return () => minter.stop();
}
