import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { listPatterns } from "@/lib/patterns";

export const dynamic = "force-dynamic";

export const GET = withToken("listPatterns", async ({ caller }) => jsonResponse({ patterns: await listPatterns(caller.userId) }));

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/patterns");
