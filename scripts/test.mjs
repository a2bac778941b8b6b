// `npm test`: the build and ESLint side by side, then the unit and API tests, then the browser tests.
// ESLint runs on one core; beside the build it fills the other while the build's type check runs on one.
// Its report waits until the build is done, so the two never interleave.
import { spawn } from "node:child_process";

/** Runs a command to its end; `collect` keeps its output to print later instead of passing it through. */
function run(command, args, { collect = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: collect ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    if (collect) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ ok: code === 0, output, status: code ?? `signal ${signal}` }));
  });
}

function stop(step, status) {
  console.error(`npm test: ${step} failed (${status})`);
  process.exit(1);
}

const lint = run("npx", ["eslint", "."], { collect: true });
const build = await run("npm", ["run", "build"]);
const linted = await lint;
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
