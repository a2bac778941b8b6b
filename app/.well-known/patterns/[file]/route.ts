import { errorResponse, otherMethods } from "@/lib/api/responses";
import { documentResponse } from "@/lib/discovery/respond";
import { ApiError } from "@/lib/errors";
import { publicCatalogFile } from "@/lib/patterns";

export const dynamic = "force-dynamic";

// A template is HTML on the service's own origin: shown, never run, and never fetching anything.
const TEMPLATE_HEADERS = { "content-security-policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:", "x-content-type-options": "nosniff" };

/** The built-in pattern catalog: index.json, <name>.md and <name>.template.html. */
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await context.params;
  const found = publicCatalogFile(file);
  if (!found) {
    return errorResponse(new ApiError("not_found", `No such file in the pattern catalog: ${file.slice(0, 100)}. /.well-known/patterns/index.json lists every pattern.`));
  }
  return documentResponse(() => found.body, found.contentType, found.contentType.startsWith("text/html") ? TEMPLATE_HEADERS : { "x-content-type-options": "nosniff" });
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
