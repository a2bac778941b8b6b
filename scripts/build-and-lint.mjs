// The first step of `npm test`: the build and ESLint at once. The build leaves a core idle for much of
// its time, which ESLint's one thread fills (57 s for both against 84 s one after the other, 2 cores).
// ESLint's report is held back and printed after the build's log, so neither interleaves the other.
import { spawn } from "node:child_process";

function run(command, args, { quiet }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ ok: code === 0, output }));
  });
}

const [build, lint] = await Promise.all([run("npm", ["run", "build"], { quiet: false }), run("npm", ["run", "--silent", "lint"], { quiet: true })]);
process.stdout.write(lint.output);
if (!build.ok) console.error("npm test: the build failed");
if (!lint.ok) console.error("npm test: ESLint failed");
process.exit(build.ok && lint.ok ? 0 : 1);
