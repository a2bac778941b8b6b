import { otherMethods } from "@/lib/api/responses";
import { buildLlmsTxt } from "@/lib/discovery/documents";
import { documentResponse } from "@/lib/discovery/respond";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return documentResponse(buildLlmsTxt, "text/plain; charset=utf-8");
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
