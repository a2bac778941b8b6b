import { otherMethods } from "@/lib/api/responses";
import { openFullPage } from "@/lib/serving/full-page";

export const dynamic = "force-dynamic";

/** "Open full page": redirects to the raw page, with a one-minute token for a drop this browser unlocked. */
async function handle(request: Request): Promise<Response> {
  return openFullPage(request.url, request.headers.get("cookie"));
}

export { handle as GET, handle as HEAD };
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
