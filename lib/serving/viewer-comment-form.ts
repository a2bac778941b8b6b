// POST /p/<slug>/comments: the viewer page's comment form. Without JavaScript it is a plain form post
// answered with a redirect back to the thread (a notice or an error in the query); with JavaScript the
// page posts the same fields as JSON and gets the comment, or the Error body, back.
import { sessionUserId } from "@/lib/auth/session-cookie";
import { signInPath } from "@/lib/auth/session";
import { readSmallBodyText } from "@/lib/api/body";
import { errorResponse, jsonResponse, toApiError } from "@/lib/api/responses";
import { ApiError } from "@/lib/errors";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { viewerCommentFormSchema } from "@/lib/schemas/comments";
import { parseInput } from "@/lib/schemas/errors";
import { postViewerComment, viewerPageOfComment } from "@/lib/comments/comments";
import { commentFormOutcome } from "@/lib/comments/form-messages";
import { parseVersionParam, publicPath } from "@/lib/drops/public-urls";
import { passcodeUnlock } from "./unlock";

// A body, a quote, an anchor and a name at their limits, each character escaped, with room to spare.
const FORM_MAX_BYTES = 64 * 1024;

function wantsJson(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").includes("application/json");
}

async function readFields(request: Request): Promise<Record<string, unknown>> {
  const text = await readSmallBodyText(request, FORM_MAX_BYTES);
  if (wantsJson(request)) {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ApiError("invalid_json", "The request body is not valid JSON.");
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

export async function handleViewerComment(request: Request, slug: string): Promise<Response> {
  const json = wantsJson(request);
  let fields: Record<string, unknown> = {};
  const viewerPath = (query: Record<string, string>) => {
    const search = new URLSearchParams(query);
    const version = parseVersionParam(typeof fields.v === "string" || typeof fields.v === "number" ? String(fields.v) : "");
    if (typeof version === "number") search.set("v", String(version));
    search.sort();
    return `${publicPath(slug)}?${search.toString()}#comments`;
  };
  try {
    fields = await readFields(request);
    const form = parseInput(viewerCommentFormSchema, fields);
    const cookies = request.headers.get("cookie");
    const comment = await postViewerComment({
      slug,
      form,
      sessionUserId: await sessionUserId(cookies ?? undefined),
      unlockOf: (passcodeHash) => passcodeUnlock(slug, passcodeHash, cookies),
      client: clientKeyFromHeaders(request.headers),
    });
    if (json) return jsonResponse(comment, 201);
    // Back to the page of the thread the new comment is on.
    const page = await viewerPageOfComment(slug, comment, form.v);
    return seeOther(viewerPath({ comment: "posted", ...(page > 1 ? { comments_page: String(page) } : {}) }));
  } catch (error) {
    const failure = toApiError(error);
    if (json) return errorResponse(failure);
    // A drop open to signed-in accounts only: sign in, then come back to the thread.
    if (failure.code === "unauthorized") return seeOther(signInPath(viewerPath({})));
    return seeOther(viewerPath({ comment_error: commentFormOutcome(failure) }));
  }
}
