import { describeCaller } from "@/lib/accounts/tokens";
import { jsonResponse, otherMethods } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";

export const dynamic = "force-dynamic";

export const GET = withToken("GET /api/me", async ({ caller }) => jsonResponse(await describeCaller(caller)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
