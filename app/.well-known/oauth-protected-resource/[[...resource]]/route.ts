import { errorResponse, otherMethods } from "@/lib/api/responses";
import { getConfig } from "@/lib/config";
import { documentResponse } from "@/lib/discovery/respond";
import { ApiError } from "@/lib/errors";
import { protectedResourceMetadata, resourceNamed } from "@/lib/oauth/resources";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ resource?: string[] }> };

/** RFC 9728 metadata for /mcp (also at the bare well-known path, which clients try next) and /api. */
export async function GET(_request: Request, context: Context): Promise<Response> {
  const path = (await context.params).resource ?? ["mcp"];
  const name = resourceNamed(`${getConfig().publicUrl}/${path.join("/")}`);
  if (!name) return errorResponse(new ApiError("not_found", `No protected resource at /${path.join("/").slice(0, 200)}; OAuth protects /mcp and /api.`));
  return documentResponse(() => protectedResourceMetadata(name), "application/json");
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
