// The commands that tests run for their fixtures, hundreds of times a run: `migrate` before
// `next start`, and the token minter (token-minter.ts) behind TestApp.createToken. Under tsx each run
// spent about a second of CPU compiling and loading the same TypeScript, so they are compiled once per
// test run. Tests of the operator commands themselves (TestApp.command) run them through tsx, as
// `npm run` does.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
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

let compiling: Promise<void> | null = null;

/**
 * The compiled command, compiled now if need be: the test runs' global setup compiles them first (so
 * that parallel workers never write them at once), the benchmarks, which start the service through the
 * same helpers, on first use.
 */
export async function compiledCommand(name: keyof typeof FIXTURE_COMMANDS): Promise<string> {
  const compiled = join(COMPILED_DIR, `${name}.mjs`);
  // One compilation per process, however many servers a benchmark starts at once.
  if (!existsSync(compiled)) await (compiling ??= compileFixtureCommands());
  return compiled;
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
}

export type TokenMinter = {
  /** A new token for the local account `login`, created if need be, as `npm run admin -- token create` makes it. */
  mint(login: string, label?: string): Promise<string>;
  close(): Promise<void>;
};

/** Starts token-minter.ts against the database that `env` names. */
export async function startTokenMinter(env: NodeJS.ProcessEnv): Promise<TokenMinter> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [await compiledCommand("token-minter")], { cwd: ROOT, env });
  const waiting: { resolve: (token: string) => void; reject: (error: Error) => void }[] = [];
  let errors = "";
  child.stderr.on("data", (chunk) => (errors += chunk));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = JSON.parse(line) as { token?: string; error?: string };
    const asker = waiting.shift()!;
    if (answer.token) asker.resolve(answer.token);
    else asker.reject(new Error(`the token minter refused: ${answer.error}`));
  });
  child.once("exit", (code, signal) => {
    for (const asker of waiting.splice(0)) asker.reject(new Error(`the token minter exited (${signal ?? code}): ${errors}`));
  });
  return {
    mint(login, label) {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify({ login, label })}\n`);
      });
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.stdin.end();
      await exited;
    },
  };
}
