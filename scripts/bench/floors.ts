// The two floors the service is compared with, each in a process of its own (like the app), so that
// none shares an event loop with autocannon: a bare node:http server sending the same bytes, and the
// cheapest dynamic page Next.js renders (the framework's own cost, which no htmldrop change removes).
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, parse, sep } from "node:path";
import { freePort } from "../../tests/helpers/app";

const ROOT = join(import.meta.dirname, "..", "..");
const NEXT = join(ROOT, "node_modules", "next", "dist", "bin", "next");

export type Floor = { url: string; pid: number; stop(): void };

// Serves each body of its folder at /<file name>, with that body's Content-Type: the same bytes a target answers.
const BARE_SERVER = `
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const folder = process.argv[1];
const manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8"));
const bodies = new Map(Object.entries(manifest).map(([name, type]) => ["/" + name, { body: readFileSync(join(folder, name)), type }]));
require("node:http").createServer((request, response) => {
  const { body, type } = bodies.get(request.url) ?? bodies.values().next().value;
  response.writeHead(200, { "content-type": type, "content-length": body.length }).end(body);
}).listen(Number(process.argv[2]), "127.0.0.1", () => console.log("listening"));`;

export type BareBody = { bytes: Buffer; contentType: string };

/** The child's output so far (stdout and stderr), for error messages. */
function capture(child: ChildProcess): () => string {
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  return () => output;
}

function whenDone(child: ChildProcess, what: string): Promise<void> {
  const output = capture(child);
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${what} exited with ${code}:\n${output()}`))));
  });
}

/** Waits for `ready` in the server's output; rejects, with that output, if it exits first. */
async function serve(what: string, child: ChildProcess, ready: string, url: string, cleanUp: () => void): Promise<Floor> {
  const output = capture(child);
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", () => output().includes(ready) && resolve());
      child.once("exit", (code) => reject(new Error(`${what} exited with ${code}:\n${output()}`)));
    });
  } catch (error) {
    cleanUp();
    throw error;
  }
  // Later, a floor's death would show only as connection errors in the next run: say why here.
  child.removeAllListeners("exit").once("exit", (code, signal) => console.error(`${what} exited (${code ?? signal}):\n${output()}`));
  return {
    url,
    pid: child.pid!,
    stop() {
      child.removeAllListeners("exit").kill();
      cleanUp();
    },
  };
}

/** One bare node:http process serving every body: `urls[i]` answers `bodies[i]`. */
export async function startBareServer(bodies: BareBody[]): Promise<Floor & { urls: string[] }> {
  const scratch = mkdtempSync(join(tmpdir(), "htmldrop-bench-bare-"));
  const manifest: Record<string, string> = {};
  bodies.forEach(({ bytes, contentType }, index) => {
    writeFileSync(join(scratch, String(index)), bytes);
    manifest[String(index)] = contentType;
  });
  writeFileSync(join(scratch, "manifest.json"), JSON.stringify(manifest));
  const port = await freePort();
  const child = spawn(process.execPath, ["-e", BARE_SERVER, scratch, String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  const floor = await serve("bare server", child, "listening", `http://127.0.0.1:${port}/`, () => rmSync(scratch, { recursive: true, force: true }));
  return { ...floor, urls: bodies.map((_, index) => `http://127.0.0.1:${port}/${index}`) };
}

/** The deepest folder holding both paths. */
function commonAncestor(a: string, b: string): string {
  const [left, right] = [a.split(sep), b.split(sep)];
  const shared = left.findIndex((part, index) => part !== right[index]);
  return left.slice(0, shared === -1 ? left.length : shared).join(sep) || parse(a).root;
}

function runNext(args: string[], cwd: string): ChildProcess {
  return spawn(process.execPath, [NEXT, ...args], { cwd, env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }, stdio: ["ignore", "pipe", "pipe"] });
}

/** Builds scripts/bench/minimal-next with the repository's own Next.js in a scratch folder, then starts it. */
export async function startMinimalNext(): Promise<Floor> {
  const scratch = mkdtempSync(join(tmpdir(), "htmldrop-bench-next-"));
  const cleanUp = () => rmSync(scratch, { recursive: true, force: true });
  try {
    cpSync(join(import.meta.dirname, "minimal-next"), scratch, { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(scratch, "node_modules"));
    // Turbopack compiles only files under its root, and node_modules resolves to the repository's.
    writeFileSync(join(scratch, "next.config.mjs"), `export default { turbopack: { root: ${JSON.stringify(commonAncestor(scratch, ROOT))} } };\n`);
    await whenDone(runNext(["build"], scratch), "next build");
  } catch (error) {
    cleanUp();
    throw error;
  }
  const port = await freePort();
  return serve("next start", runNext(["start", "--port", String(port), "--hostname", "127.0.0.1"], scratch), "Ready", `http://127.0.0.1:${port}/`, cleanUp);
}
