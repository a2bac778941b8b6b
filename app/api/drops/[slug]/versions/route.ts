import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { listVersions } from "@/lib/drops";

export const dynamic = "force-dynamic";

export const GET = withToken<{ slug: string }>("listVersions", async ({ caller, params }) => jsonResponse(await listVersions(caller.userId, params.slug)));

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/drops/{slug}/versions");
