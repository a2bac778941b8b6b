import { cookies } from "next/headers";
import { getSessionUser } from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { decideConsent, interactionBelongsToBrowser, isInteractionUid } from "@/lib/oauth/consent";
import { consentPath } from "@/lib/oauth/endpoints";

export const dynamic = "force-dynamic";

function refusal(status: number, message: string): Response {
  return new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

/** The consent form's Approve and Deny: a plain form POST, so it works without JavaScript. */
export async function POST(request: Request, context: { params: Promise<{ uid: string }> }): Promise<Response> {
  const { uid } = await context.params;
  // A form on another site must not be able to answer for the signed-in human.
  if (request.headers.get("origin") !== new URL(getConfig().publicUrl).origin) {
    return refusal(403, "Cross-site requests cannot answer a connection request. Use the form on htmldrop's own page.");
  }
  if (!isInteractionUid(uid) || !interactionBelongsToBrowser(uid, await cookies())) {
    return refusal(403, "This connection request was started in another browser. Start again from your app, in this browser.");
  }
  const user = await getSessionUser();
  if (!user) return seeOther(consentPath(uid));
  const form = await request.formData().catch(() => null);
  const decision = form?.get("decision");
  if (decision !== "approve" && decision !== "deny") return refusal(400, "Answer with Approve or Deny.");
  const returnTo = await decideConsent({ uid, userId: user.userId, approve: decision === "approve" });
  return seeOther(returnTo ?? consentPath(uid));
}
