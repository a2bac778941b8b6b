import { errorResponse, otherMethods } from "@/lib/api/responses";
import { ApiError } from "@/lib/errors";
import { crossSitePostRefusal, lockCookie } from "@/lib/serving/unlock";
import { SLUG_PATTERN } from "@/lib/schemas/common";

type Context = { params: Promise<{ slug: string }> };

/** "Lock again": forgets this browser's unlock for the drop. Only the viewer's own form may ask. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const { slug } = await params;
  if (!SLUG_PATTERN.test(slug)) return errorResponse(new ApiError("not_found", "There is no drop at this address."));
  const refusal = crossSitePostRefusal(request);
  if (refusal) return refusal;
  return new Response(null, { status: 303, headers: { location: `/p/${slug}`, "set-cookie": lockCookie(slug), "cache-control": "no-store" } });
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
