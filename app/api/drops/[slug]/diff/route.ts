import { methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { diffVersions } from "@/lib/drops/diff";
import { diffQuerySchema } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

/** A parameter given twice stays a list, which the schema refuses, rather than one silently winning. */
function queryInput(params: URLSearchParams): Record<string, string | string[]> {
  return Object.fromEntries([...new Set(params.keys())].map((name) => {
    const values = params.getAll(name);
    return [name, values.length === 1 ? values[0]! : values];
  }));
}

/** The unified diff as text, ready for `patch` or `git apply`; errors stay JSON in the Error shape. */
export const GET = withToken<{ slug: string }>("diffVersions", async ({ request, caller, params }) => {
  const { from, to } = parseInput(diffQuerySchema, queryInput(new URL(request.url).searchParams));
  const { unified } = await diffVersions(caller.userId, params.slug, from, to);
  return new Response(unified, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store", "x-content-type-options": "nosniff" } });
});

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/drops/{slug}/diff");
