import { errorResponse, jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { purgeExpiredDrops } from "@/lib/drops/purge-expired";
import { assertCronCaller } from "@/lib/ops/cron";

// Vercel's cron (vercel.json) calls this daily; under `npm start` a timer does the same work.
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    assertCronCaller(request.headers);
    return jsonResponse(await purgeExpiredDrops());
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/cron/purge-expired");
