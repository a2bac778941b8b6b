// The live OpenAPI document as tools consume it: two linters with their stock rulesets, two client
// generators whose output must type-check and filter drops by metadata, and the /mcp statuses.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createClient as generateHeyApiClient } from "@hey-api/openapi-ts";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Document, Spectral } from "@stoplight/spectral-core";
import Parsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startApp, type TestApp } from "../helpers/app";

const ROOT = join(import.meta.dirname, "..", "..");
const SECRET = "0123456789abcdefghij0123456789abcdefghij";

let app: TestApp;
let origin: string;
let openapi: any;
let token: string;
let generated: string;

beforeAll(async () => {
  const port = await freePort();
  // A public address, as in production: linters rightly flag a localhost server URL.
  app = await startApp({ env: { PORT: String(port), PUBLIC_URL: `http://htmldrop.test:${port}`, AUTH_SECRET: SECRET, TOKEN_PEPPER: SECRET } });
  origin = `http://127.0.0.1:${port}`;
  openapi = (await app.api("/openapi.json")).body;
  token = await app.createToken("tooling");
  for (const [title, metadata] of [
    ["alpha weekly", { project: "alpha", kind: "weekly" }],
    ["alpha daily", { project: "alpha", kind: "daily" }],
    ["beta weekly", { project: "beta", kind: "weekly" }],
  ] as const) {
    expect((await app.api("/api/drops", { method: "POST", token, body: { title, html: "<p>x</p>", metadata } })).status).toBe(201);
  }
  // Generated code lives outside the repository; its node_modules link lets it import openapi-fetch.
  generated = mkdtempSync(join(tmpdir(), "htmldrop-clients-"));
  symlinkSync(join(ROOT, "node_modules"), join(generated, "node_modules"), "dir");
});
afterAll(async () => {
  if (generated) rmSync(generated, { recursive: true, force: true });
  await app?.stop();
});

describe("linting the live document", () => {
  it("finds nothing with Redocly's recommended ruleset", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(openapi), absoluteRef: `${origin}/openapi.json`, config });
    const findings = problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
    expect(findings).toEqual([]);
  });

  it("finds nothing with Spectral's spectral:oas ruleset", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [oas] } as never);
    const results = await spectral.run(new Document(JSON.stringify(openapi, null, 2), Parsers.Json, "openapi.json"));
    // Severity 0 is an error, 1 a warning; information and hints may stay.
    const findings = results.filter((result) => result.severity <= 1).map((result) => `${result.code}: ${result.message} at ${result.path.join(".")}`);
    expect(findings).toEqual([]);
  });
});

/** Type-checks the generated code and the calls made with it, as a project using the client would. */
async function typeCheck(files: string[]): Promise<void> {
  const tsconfig = {
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom", "dom.iterable"], types: [], skipLibCheck: true },
    files,
  };
  writeFileSync(join(generated, "tsconfig.json"), JSON.stringify(tsconfig));
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const result = await promisify(execFile)(process.execPath, [tsc, "-p", generated]).catch((error: { stdout: string }) => error);
  expect(result.stdout).toBe("");
}

type Found = { status: number; titles: string[] };

describe("clients generated from the live document filter by metadata", () => {
  it("openapi-typescript + openapi-fetch", async () => {
    writeFileSync(join(generated, "schema.d.ts"), astToString(await openapiTS(new URL(`${origin}/openapi.json`))));
    writeFileSync(
      join(generated, "openapi-fetch-usage.ts"),
      `import createClient from "openapi-fetch";
import type { paths } from "./schema";

export async function find(baseUrl: string, token: string, metadata: Record<string, string>) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const { data, response } = await client.GET("/api/drops", { params: { query: { metadata, sortBy: "created_at", sortOrder: "asc" } } });
  return { status: response.status, titles: (data?.data ?? []).map((drop) => drop.title) };
}
`,
    );
    await typeCheck(["schema.d.ts", "openapi-fetch-usage.ts"]);
    const { find } = (await import(join(generated, "openapi-fetch-usage.ts"))) as { find: (...args: unknown[]) => Promise<Found> };
    expect(await find(origin, token, { project: "alpha" })).toEqual({ status: 200, titles: ["alpha weekly", "alpha daily"] });
    expect(await find(origin, token, { project: "alpha", kind: "weekly" })).toEqual({ status: 200, titles: ["alpha weekly"] });
    expect(await find(origin, token, { Kind: "weekly" })).toEqual({ status: 200, titles: ["alpha weekly", "beta weekly"] });
  });

  it("@hey-api/openapi-ts", async () => {
    await generateHeyApiClient({ input: `${origin}/openapi.json`, output: join(generated, "hey-api"), logs: { level: "silent" } } as never);
    writeFileSync(
      join(generated, "hey-api-usage.ts"),
      `import { client } from "./hey-api/client.gen";
import { listDrops } from "./hey-api/sdk.gen";

export async function find(baseUrl: string, token: string, metadata: Record<string, string>) {
  client.setConfig({ baseUrl, auth: () => token });
  const { data, response } = await listDrops({ query: { metadata, sortBy: "created_at", sortOrder: "asc" } });
  return { status: response.status, titles: (data?.data ?? []).map((drop) => drop.title) };
}
`,
    );
    await typeCheck(["hey-api-usage.ts"]);
    const { find } = (await import(join(generated, "hey-api-usage.ts"))) as { find: (...args: unknown[]) => Promise<Found> };
    expect(await find(origin, token, { project: "alpha" })).toEqual({ status: 200, titles: ["alpha weekly", "alpha daily"] });
    expect(await find(origin, token, { project: "beta", kind: "weekly" })).toEqual({ status: 200, titles: ["beta weekly"] });
  });
});

describe("the metadata filter's two forms", () => {
  const titles = async (query: string) => {
    const res = await app.api(`/api/drops?sortBy=created_at&sortOrder=asc&${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((drop: { title: string }) => drop.title);
  };

  it("ANDs metadata.<key> and metadata[<key>] together, percent-encoded brackets included", async () => {
    expect(await titles("metadata[project]=alpha")).toEqual(["alpha weekly", "alpha daily"]);
    expect(await titles("metadata%5Bproject%5D=alpha")).toEqual(["alpha weekly", "alpha daily"]);
    expect(await titles("metadata.project=alpha&metadata[kind]=daily")).toEqual(["alpha daily"]);
    // Each pair must match: the same key in both forms with one value is one condition, with two values none can hold.
    expect(await titles("metadata.project=alpha&metadata[project]=alpha")).toEqual(["alpha weekly", "alpha daily"]);
    expect(await titles("metadata.project=alpha&metadata[project]=beta")).toEqual([]);
  });

  it("refuses a malformed bracket key like a malformed dotted one", async () => {
    for (const query of ["metadata[]=x", "metadata[a][b]=x", "metadata[-a]=x"]) {
      const res = await app.api(`/api/drops?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("invalid_arg");
    }
    const nul = await app.api("/api/drops?metadata[k]=%00", { token });
    expect(nul.body.error).toMatchObject({ code: "invalid_arg", details: { fields: [{ field: "metadata.k", message: expect.stringContaining("U+0000") }] } });
  });
});

describe("POST /mcp in the document", () => {
  const mcp = (init: { body?: string; headers?: Record<string, string>; method?: string } = {}) =>
    fetch(`${origin}/mcp`, {
      method: init.method ?? "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...init.headers },
      body: init.method === "GET" ? undefined : (init.body ?? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })),
    });

  it("types its JSON-RPC request and answer, and /openapi.json's own answer, for generated clients", async () => {
    // A bare {"type": "object"} became Record<string, never>, to which none of these values could be assigned.
    writeFileSync(join(generated, "schema-mcp.d.ts"), astToString(await openapiTS(openapi)));
    writeFileSync(
      join(generated, "mcp-usage.ts"),
      `import type { operations } from "./schema-mcp";
type Mcp = operations["mcp"];
export const body: NonNullable<Mcp["requestBody"]>["content"]["application/json"] = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } };
export const answer: Mcp["responses"][200]["content"]["application/json"] = { jsonrpc: "2.0", id: 1, result: { tools: [] } };
export const failed: Mcp["responses"][200]["content"]["application/json"] = { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params" } };
export const document: operations["getOpenApi"]["responses"][200]["content"]["application/json"] = { openapi: "3.1.0", info: { title: "htmldrop" }, paths: {} };
`,
    );
    await typeCheck(["schema-mcp.d.ts", "mcp-usage.ts"]);
  });

  it("lists every status the endpoint answers", async () => {
    const answers = await Promise.all([
      mcp(),
      mcp({ body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) }),
      mcp({ body: "{" }),
      mcp({ headers: { authorization: "" } }),
      mcp({ headers: { origin: "http://elsewhere.example" } }),
      mcp({ method: "GET" }),
      mcp({ headers: { accept: "application/json" } }),
      mcp({ headers: { "content-type": "text/plain" } }),
    ]);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toEqual([200, 202, 400, 401, 403, 405, 406, 415]);
    // Plus 503, which only an outage of the database or the rate-limit store produces.
    expect(Object.keys(openapi.paths["/mcp"].post.responses).sort()).toEqual([...statuses, 503].map(String).sort());
  });
});
