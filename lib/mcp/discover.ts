import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { mcpInstructions } from "./guide";
import { MCP_CAPABILITIES, MCP_SERVER_INFO } from "./server";

type DiscoverRequest = { jsonrpc: "2.0"; id: string | number; method: "server/discover" };

export function isDiscoverRequest(body: unknown): body is DiscoverRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const message = body as Record<string, unknown>;
  return message.jsonrpc === "2.0" && message.method === "server/discover" && (typeof message.id === "string" || typeof message.id === "number");
}

/**
 * MCP 2026-07-28 clients may open with `server/discover` instead of `initialize`. The answer lists the
 * revisions this endpoint speaks (the SDK's, all with `initialize`), so such a client falls back to the
 * handshake it shares with them.
 */
export function discoverResult() {
  return {
    supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    capabilities: MCP_CAPABILITIES,
    serverInfo: MCP_SERVER_INFO,
    instructions: mcpInstructions(),
    _meta: { "io.modelcontextprotocol/serverInfo": MCP_SERVER_INFO },
  };
}
