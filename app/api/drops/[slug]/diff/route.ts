import { otherMethods } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { diffVersions } from "@/lib/drops/diff";
import { diffQuerySchema } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

/** The unified diff as text, ready for `patch` or `git apply`; errors stay JSON in the Error shape. */
export const GET = withToken<{ slug: string }>("GET /api/drops/{slug}/diff", async ({ request, caller, params }) => {
  const { from, to } = parseInput(diffQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  const { unified } = await diffVersions(caller.userId, params.slug, from, to);
  return new Response(unified, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store", "x-content-type-options": "nosniff" } });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
