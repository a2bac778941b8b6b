// "Open full page": the viewer links here (GET /p/<slug>/full?v=N on the public origin) instead of
// handing out the raw URL with its iframe's token. A locked drop's raw page is reached only through a
// redirect carrying a token that lasts a minute and never past this browser's unlock cookie, so the
// link a reader forwards opens nothing without the passcode; without the cookie, the gate is shown.
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db";
import { decideAccess, dropStateOf, namesNothing } from "@/lib/drops/access-decision";
import { parsePublicPath, publicUrl, viewerPath } from "@/lib/drops/public-urls";
import { createViewerPass } from "@/lib/sharing/pass";
import { viewerOn } from "@/lib/sharing/standing";
import { expiredPage, notFound, signInRedirect, toWebResponse } from "./raw";
import { createFrameToken, FULL_PAGE_TOKEN_TTL_MS, passcodeUnlock } from "./unlock";

function seeOther(location: string): Response {
  // The token is in the Location; nothing of this answer may be kept or passed on.
  return new Response(null, { status: 303, headers: { location, "cache-control": "private, no-store", "referrer-policy": "no-referrer" } });
}

/** `url`: the request's path and query (or its absolute URL). */
export async function openFullPage(url: string, cookieHeader: string | null): Promise<Response> {
  const path = parsePublicPath(url);
  if (path?.route !== "full" || namesNothing(path)) return toWebResponse(notFound());
  const slug = path.slug!;
  const drop = await db().drop.findUnique({ where: { slug }, select: { id: true, ownerId: true, access: true, passcodeHash: true, expiresAt: true, indexable: true } });
  const viewer = await viewerOn(drop, { slug, cookieHeader }, passcodeUnlock(slug, drop?.passcodeHash ?? null, cookieHeader));
  const state = drop && dropStateOf(drop);
  const decision = decideAccess(path, state, viewer, now());
  if (decision.answer === "expired") return toWebResponse(expiredPage());
  if (decision.answer === "sign_in") return toWebResponse(signInRedirect(slug));
  const version = typeof path.version === "number" ? path.version : null;
  if (decision.answer === "gate") return seeOther(viewerPath(slug, version));
  if (decision.answer !== "serve" || drop === null) return toWebResponse(notFound());
  const token = drop.passcodeHash === null || viewer.unlock === null ? null : createFrameToken(slug, drop.passcodeHash, viewer.unlock.until, FULL_PAGE_TOKEN_TTL_MS);
  // viewerOn names an account only on a drop for some people or with a passcode.
  const pass = viewer.kind === "account" ? createViewerPass(slug, viewer.accountId) : null;
  return seeOther(new URL(publicUrl(getConfig().contentOrigin, slug, "raw", { v: version, unlock: token, pass })).href);
}
