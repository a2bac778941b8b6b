import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { getDropStats } from "@/lib/drops";
import { dropStatsQuerySchema } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

export const GET = withToken<{ slug: string }>("getDropStats", async ({ request, caller, params }) => {
  const { days } = parseInput(dropStatsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return jsonResponse(await getDropStats(caller.userId, params.slug, days));
});

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/drops/{slug}/stats");
