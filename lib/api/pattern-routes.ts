// PUT /api/patterns/{name}, which the front door (lib/serving/front-door.ts) also calls directly;
// app/api/patterns/[name]/route.ts exports the same function to Next.
import { savePattern } from "@/lib/patterns";
import { assertWriteBudgetLeft } from "@/lib/ratelimit";
import { parseInput } from "@/lib/schemas/errors";
import { savePatternBodySchema } from "@/lib/schemas/patterns";
import { readJsonBody } from "./body";
import { jsonResponse } from "./responses";
import { withToken } from "./with-token";

/** Adds the pattern (201) or replaces the account's own of that name (200). */
export const savePatternRoute = withToken<{ name: string }>("savePattern", async ({ request, caller, params }) => {
  await assertWriteBudgetLeft(caller.userId);
  const input = parseInput(savePatternBodySchema, await readJsonBody(request));
  const { pattern, created } = await savePattern(caller.userId, params.name, input);
  return jsonResponse(pattern, created ? 201 : 200);
});
