// `npm test`: the build and ESLint, then the unit and API tests, then the browser tests.
// ESLint starts once the build reaches its type check, which runs on one core: started beside the
// build's compilation it took a core from Turbopack's own threads, and the two together took 24 s longer.
// Its report waits until the build is done, so the two never interleave.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

/** What `next build` prints as its type check starts. */
const TYPE_CHECK_STARTS = "Running TypeScript";

/**
 * Runs a command to its end. `collect` keeps its output to print later instead of passing it through;
 * `onOutput` sees the standard output as it is passed through.
 */
function run(command, args, { collect = false, env = process.env, onOutput } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: collect || onOutput ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    if (collect) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    } else if (onOutput) {
      let seen = "";
      child.stdout.on("data", (chunk) => {
        process.stdout.write(chunk);
        seen += chunk;
        onOutput(seen);
      });
      child.stderr.pipe(process.stderr);
    }
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ ok: code === 0, output, status: code ?? `signal ${signal}` }));
  });
}

function stop(step, status) {
  console.error(`npm test: ${step} failed (${status})`);
  process.exit(1);
}

// Turbopack's build cache cost a fresh build 25 CPU-seconds to write and saves a rebuild about as many
// seconds: it is written only where a build exists already, as a checkout built once is built again.
const buildEnv = existsSync(".next/BUILD_ID") ? process.env : { ...process.env, HTMLDROP_BUILD_CACHE: "off" };
let lint = null;
const startLint = () => (lint ??= run("npx", ["eslint", "."], { collect: true }));
const build = await run("npm", ["run", "build"], {
  env: buildEnv,
  onOutput: (seen) => {
    if (seen.includes(TYPE_CHECK_STARTS)) startLint();
  },
});
const linted = await startLint();
process.stdout.write(linted.output);
if (!build.ok) stop("the build", build.status);
if (!linted.ok) stop("ESLint", linted.status);

for (const [step, command, args] of [
  ["the unit and API tests", "npx", ["vitest", "run"]],
  ["the browser tests", "npx", ["playwright", "test"]],
]) {
  const result = await run(command, args);
  if (!result.ok) stop(step, result.status);
}
