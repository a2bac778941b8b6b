import { errorResponse, jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { pollDeviceAuth } from "@/lib/device-auth";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { pollDeviceAuthQuerySchema } from "@/lib/schemas/device-auth";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const query = parseInput(pollDeviceAuthQuerySchema, { token: new URL(request.url).searchParams.get("token") ?? undefined });
    return jsonResponse(await pollDeviceAuth({ pollToken: query.token, clientKey: clientKeyFromHeaders(request.headers) }));
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/auth/poll");
