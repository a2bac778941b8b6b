import { errorResponse, jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { assertCronCaller } from "@/lib/ops/cron";
import { sendDueNotifications } from "@/lib/notifications/worker";

// Vercel's cron (vercel.json) calls this every minute; under `npm start` a timer does the same work.
export const dynamic = "force-dynamic";
export const maxDuration = 60;

// Stops claiming new emails in time for the last ones to finish within maxDuration.
const RUN_BUDGET_MS = 30_000;

export async function GET(request: Request): Promise<Response> {
  try {
    assertCronCaller(request.headers);
    return jsonResponse(await sendDueNotifications(RUN_BUDGET_MS));
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/cron/send-notifications");
