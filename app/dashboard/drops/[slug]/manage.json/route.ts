import { manageHrefForSession } from "@/lib/serving/viewer";

// Read by a drop's public page (app/p/[slug]/manage-link.tsx): per session, so never stored by any cache.
export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  const href = await manageHrefForSession((await params).slug, request.headers.get("cookie"));
  return Response.json({ href }, { headers: { "cache-control": "private, no-store" } });
}
