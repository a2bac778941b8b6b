import { errorResponse, otherMethods } from "@/lib/api/responses";
import { ApiError } from "@/lib/errors";
import { namesNothing } from "@/lib/drops/access-decision";
import { routeAt, viewerPath } from "@/lib/drops/public-urls";
import { crossSitePostRefusal, lockCookie } from "@/lib/serving/unlock";

type Context = { params: Promise<{ slug: string }> };

/** "Lock again": forgets this browser's unlock for the drop. Only the viewer's own form may ask. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const { slug } = await params;
  if (namesNothing(routeAt("lock", slug))) return errorResponse(new ApiError("not_found", "There is no drop at this address."));
  const refusal = crossSitePostRefusal(request);
  if (refusal) return refusal;
  return new Response(null, { status: 303, headers: { location: viewerPath(slug), "set-cookie": lockCookie(slug), "cache-control": "no-store" } });
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
