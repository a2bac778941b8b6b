import { otherMethods } from "@/lib/api/responses";
import { handleViewerComment } from "@/lib/serving/viewer-comment-form";
import { crossSitePostRefusal } from "@/lib/serving/unlock";

type Context = { params: Promise<{ slug: string }> };

/** The viewer page's comment form posts here (lib/serving/viewer-comment-form.ts); another site's page may not. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return crossSitePostRefusal(request) ?? handleViewerComment(request, (await params).slug);
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
