import { errorResponse, jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { checkHealth } from "@/lib/ops/health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    return jsonResponse(await checkHealth());
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/health");
