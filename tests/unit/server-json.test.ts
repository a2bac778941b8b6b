// server.json, the MCP Registry's description of htmldrop: a remote server whose URL the one who
// connects completes, at the API's version. No package ships the registry's schema, so its required shape
// is checked here (name, description, version, and a Streamable HTTP remote whose variables cover the URL).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { API_VERSION } from "@/lib/api/operations";

const serverJson = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "server.json"), "utf8"));

describe("server.json", () => {
  it("describes a remote Streamable HTTP server at /mcp, at the API's version", () => {
    expect(serverJson.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/[\d-]+\/server\.schema\.json$/);
    expect(serverJson.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(serverJson.description.length).toBeLessThanOrEqual(100);
    expect(serverJson.version).toBe(API_VERSION);
    expect(serverJson.packages).toBeUndefined();
    expect(serverJson.remotes).toHaveLength(1);
    const [remote] = serverJson.remotes;
    expect(remote).toMatchObject({ type: "streamable-http", url: "https://{host}/mcp" });
    // Every {variable} in the URL is declared; no header is asked for, as clients sign in with OAuth.
    const used = [...remote.url.matchAll(/\{([a-z_]+)\}/g)].map((match: RegExpMatchArray) => match[1]);
    expect(Object.keys(remote.variables)).toEqual(used);
    expect(remote.variables.host).toMatchObject({ isRequired: true, description: expect.stringContaining("OAuth") });
    expect(remote.headers).toBeUndefined();
  });
});
