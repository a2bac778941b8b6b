import { errorResponse, otherMethods, toApiError } from "@/lib/api/responses";
import { publicPath } from "@/lib/drops/public-urls";
import { unlockFormSchema } from "@/lib/schemas/serving";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { crossSitePostRefusal, unlockDrop } from "@/lib/serving/unlock";

type Context = { params: Promise<{ slug: string }> };

function seeOther(location: string, cookie?: string): Response {
  const headers: Record<string, string> = { location, "cache-control": "no-store" };
  if (cookie) headers["set-cookie"] = cookie;
  return new Response(null, { status: 303, headers });
}

/** The gate's form posts here (no JavaScript needed); every outcome redirects back to the page it was on. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const refusal = crossSitePostRefusal(request);
  if (refusal) return refusal;
  const { slug } = await params;
  const form = unlockFormSchema.safeParse(Object.fromEntries(await request.formData().catch(() => new FormData())));
  const back = (error?: string) => {
    if (form.success && form.data.page === "compare") return publicPath(slug, "compare", { from: form.data.from, to: form.data.to, error });
    return publicPath(slug, "viewer", { v: form.success ? form.data.v : undefined, error });
  };
  if (!form.success) return seeOther(back("wrong"));
  try {
    const result = await unlockDrop(slug, form.data.passcode, clientKeyFromHeaders(request.headers), request.headers.get("cookie"));
    if (result.outcome === "unlocked") return seeOther(back(), result.cookie);
    return seeOther(back(result.outcome === "wrong_passcode" ? "wrong" : undefined));
  } catch (error) {
    const failure = toApiError(error);
    if (failure.code === "rate_limited") return seeOther(back("limited"));
    // Fail closed: an attempt that cannot be counted is not checked.
    if (failure.code === "service_unavailable") return seeOther(back("unavailable"));
    return errorResponse(failure);
  }
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
