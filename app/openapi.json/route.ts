import { methodsNotServedAt } from "@/lib/api/responses";
import { buildOpenApiDocument } from "@/lib/discovery/openapi";
import { documentResponse } from "@/lib/discovery/respond";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return documentResponse(buildOpenApiDocument, "application/json; charset=utf-8");
}

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/openapi.json");
