import { describeCaller } from "@/lib/accounts/tokens";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";

export const dynamic = "force-dynamic";

export const GET = withToken("getMe", async ({ caller }) => jsonResponse(await describeCaller(caller)));

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/me");
