import { otherMethods } from "@/lib/api/responses";
import { openFullPage } from "@/lib/serving/full-page";

type Context = { params: Promise<{ slug: string }> };

export const dynamic = "force-dynamic";

/** "Open full page": redirects to the raw page, with a one-minute token for a drop this browser unlocked. */
async function handle(request: Request, { params }: Context): Promise<Response> {
  const { slug } = await params;
  return openFullPage(slug, new URL(request.url).searchParams, request.headers.get("cookie"));
}

export { handle as GET, handle as HEAD };
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
