import { readJsonBody } from "@/lib/api/body";
import { errorResponse, jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { startDeviceAuth } from "@/lib/device-auth";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { startDeviceAuthBodySchema } from "@/lib/schemas/device-auth";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const body = parseInput(startDeviceAuthBodySchema, await readJsonBody(request, { emptyAs: {}, maxBytes: 4096 }));
    return jsonResponse(await startDeviceAuth({ label: body.label ?? null, scopes: body.scopes, clientKey: clientKeyFromHeaders(request.headers) }));
  } catch (error) {
    return errorResponse(error);
  }
}

export const { GET, PUT, PATCH, DELETE } = methodsNotServedAt("/api/auth/start");
