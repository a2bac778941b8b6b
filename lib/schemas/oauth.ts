import { z } from "zod";
// Up a floor, deliberately: the scope vocabulary, which imports nothing, lives with the accounts it governs.
import { SCOPES } from "@/lib/accounts/scopes";

// The OAuth discovery documents a client reads before the authorization code flow. oidc-provider writes
// the authorization-server metadata; these schemas state the fields clients rely on (others may appear).

export const protectedResourceMetadataSchema = z.object({
  resource: z.url().describe("The protected resource: `{PUBLIC_URL}/mcp` or `{PUBLIC_URL}/api`. Send it as `resource` (RFC 8707) when asking for a code and for tokens."),
  authorization_servers: z.array(z.url()).describe("htmldrop itself (its PUBLIC_URL): the issuer whose metadata is at /.well-known/oauth-authorization-server."),
  scopes_supported: z.array(z.enum(SCOPES)).describe("The scopes a grant for this resource may carry."),
  bearer_methods_supported: z.array(z.literal("header")).describe("Access tokens go in `Authorization: Bearer`, never in the query or body."),
  resource_name: z.string(),
  resource_documentation: z.url(),
});

export const authorizationServerMetadataSchema = z.looseObject({
  issuer: z.url().describe("PUBLIC_URL; the `iss` of every authorization response (RFC 9207)."),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  registration_endpoint: z.url().describe("Dynamic client registration (RFC 7591): public clients, `token_endpoint_auth_method` none."),
  revocation_endpoint: z.url().describe("Token revocation (RFC 7009)."),
  jwks_uri: z.url(),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()).describe("`code` only."),
  grant_types_supported: z.array(z.string()).describe("`authorization_code` and `refresh_token`."),
  code_challenge_methods_supported: z.array(z.string()).describe("`S256` only; PKCE is required."),
  token_endpoint_auth_methods_supported: z.array(z.string()).describe("`none`: public clients, PKCE instead of a secret."),
  authorization_response_iss_parameter_supported: z.boolean(),
  client_id_metadata_document_supported: z.boolean().describe("A `client_id` may be the https URL of a Client ID Metadata Document."),
});

export type ProtectedResourceMetadataJson = z.infer<typeof protectedResourceMetadataSchema>;
