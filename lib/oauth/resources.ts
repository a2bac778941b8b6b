// Up a floor, deliberately: the scope vocabulary, which imports nothing.
import { SCOPES } from "@/lib/accounts/scopes";
import { getConfig } from "@/lib/config";
import type { ProtectedResourceMetadataJson } from "@/lib/schemas/oauth";

/**
 * The protected resources OAuth access tokens are issued for (RFC 8707). A token is bound to one of
 * them and refused by the other: a grant to an MCP client reaches /mcp, not the REST API.
 */
export const RESOURCES = ["mcp", "api"] as const;
export type ResourceName = (typeof RESOURCES)[number];

export function resourceUrl(name: ResourceName): string {
  return `${getConfig().publicUrl}/${name}`;
}

export function resourceNamed(url: string): ResourceName | null {
  return RESOURCES.find((name) => resourceUrl(name) === url) ?? null;
}

/** Where a resource's metadata lives: the well-known path with the resource's path appended (RFC 9728 §3.1). */
export function protectedResourceMetadataUrl(name: ResourceName): string {
  return `${getConfig().publicUrl}/.well-known/oauth-protected-resource/${name}`;
}

/** RFC 9728 protected-resource metadata: htmldrop is its own authorization server. */
export function protectedResourceMetadata(name: ResourceName): ProtectedResourceMetadataJson {
  const { publicUrl } = getConfig();
  return {
    resource: resourceUrl(name),
    authorization_servers: [publicUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: name === "mcp" ? "htmldrop MCP endpoint" : "htmldrop REST API",
    resource_documentation: `${publicUrl}/docs`,
  };
}
