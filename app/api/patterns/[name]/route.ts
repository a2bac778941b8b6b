import { jsonResponse, noContent, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { savePatternRoute } from "@/lib/api/pattern-routes";
import { deletePattern, getPattern } from "@/lib/patterns";

export const dynamic = "force-dynamic";

type Params = { name: string };

export const GET = withToken<Params>("getPattern", async ({ caller, params }) => jsonResponse(await getPattern(caller.userId, params.name)));

/** Adds the pattern (201) or replaces the account's own of that name (200); the front door calls the same function on `npm start`. */
export const PUT = savePatternRoute;

export const DELETE = withToken<Params>("deletePattern", async ({ caller, params }) => {
  await deletePattern(caller.userId, params.name);
  return noContent();
});

export const { POST, PATCH } = methodsNotServedAt("/api/patterns/{name}");
