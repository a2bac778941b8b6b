// The operator commands that tests run for their fixtures, hundreds of times a run: `admin` for
// tokens and `migrate` before `next start`. Under tsx each run spent about a second of CPU compiling
// and loading the same TypeScript, so they are compiled once per test run. Tests of the commands
// themselves (TestApp.command) still run them through tsx, as `npm run` does.
import { join } from "node:path";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..", "..");
// Inside the checkout, so the compiled files find the packages they leave external.
const COMPILED_DIR = join(ROOT, "node_modules", ".cache", "htmldrop-tests");
const FIXTURE_COMMANDS = ["admin", "migrate"] as const;

export function compiledCommand(name: (typeof FIXTURE_COMMANDS)[number]): string {
  return join(COMPILED_DIR, `${name}.mjs`);
}

export async function compileFixtureCommands(): Promise<void> {
  await build({
    entryPoints: FIXTURE_COMMANDS.map((name) => join(ROOT, "scripts", `${name}.ts`)),
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
