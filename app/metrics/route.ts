import { errorResponse, methodsNotServedAt } from "@/lib/api/responses";
import { assertMayReadMetrics, METRICS_CONTENT_TYPE, metricsText } from "@/lib/ops/metrics";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    assertMayReadMetrics(request.headers);
    return new Response(await metricsText(), { headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/metrics");
