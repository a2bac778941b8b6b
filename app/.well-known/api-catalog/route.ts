import { otherMethods } from "@/lib/api/responses";
import { buildApiCatalog } from "@/lib/discovery/documents";
import { documentResponse } from "@/lib/discovery/respond";

export const dynamic = "force-dynamic";

const CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

export function GET(): Response {
  return documentResponse(buildApiCatalog, CONTENT_TYPE);
}

/** RFC 9727 section 2: HEAD answers with a Link to the catalog itself. */
export function HEAD(): Response {
  const response = documentResponse(buildApiCatalog, CONTENT_TYPE);
  return new Response(null, { status: response.status, headers: { ...Object.fromEntries(response.headers), link: '</.well-known/api-catalog>; rel="api-catalog"' } });
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
