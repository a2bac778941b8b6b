import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { assertWriteBudgetLeft } from "@/lib/ratelimit";
import { setPasscode } from "@/lib/drops";
import { setPasscodeBodySchema } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

export const POST = withToken<{ slug: string }>("setPasscode", async ({ request, caller, params }) => {
  await assertWriteBudgetLeft(caller.userId);
  const { passcode } = parseInput(setPasscodeBodySchema, await readJsonBody(request));
  return jsonResponse(await setPasscode(caller.userId, params.slug, passcode));
});

export const { GET, PUT, PATCH, DELETE } = methodsNotServedAt("/api/drops/{slug}/passcode");
