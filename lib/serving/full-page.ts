// "Open full page": the viewer links here (GET /p/<slug>/full?v=N on the public origin) instead of
// handing out the raw URL with its iframe's token. A locked drop's raw page is reached only through a
// redirect carrying a token that lasts a minute and never past this browser's unlock cookie, so the
// link a reader forwards opens nothing without the passcode; without the cookie, the gate is shown.
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db";
import { isExpired } from "@/lib/drops/expiry";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { fullPageQuerySchema } from "@/lib/schemas/serving";
import { expiredPage, notFound, toWebResponse } from "./raw";
import { createFrameToken, FULL_PAGE_TOKEN_TTL_MS, unlockCookieExpiry } from "./unlock";

function seeOther(location: string): Response {
  // The token is in the Location; nothing of this answer may be kept or passed on.
  return new Response(null, { status: 303, headers: { location, "cache-control": "private, no-store", "referrer-policy": "no-referrer" } });
}

export async function openFullPage(slug: string, search: URLSearchParams, cookieHeader: string | null): Promise<Response> {
  const query = fullPageQuerySchema.safeParse(Object.fromEntries(search));
  if (!SLUG_PATTERN.test(slug) || !query.success || search.getAll("v").length > 1) return toWebResponse(notFound());
  const drop = await db().drop.findUnique({ where: { slug }, select: { passcodeHash: true, expiresAt: true } });
  if (!drop) return toWebResponse(notFound());
  if (isExpired(drop.expiresAt, now())) return toWebResponse(expiredPage());

  const version = query.data.v;
  const raw = new URL(`${getConfig().contentOrigin}/p/${slug}/raw`);
  if (version) raw.searchParams.set("v", version);
  if (drop.passcodeHash === null) return seeOther(raw.href);
  const unlockExpiresAt = unlockCookieExpiry(slug, drop.passcodeHash, cookieHeader);
  if (unlockExpiresAt === null) return seeOther(`/p/${slug}${version ? `?v=${version}` : ""}`);
  raw.searchParams.set("unlock", createFrameToken(slug, drop.passcodeHash, unlockExpiresAt, FULL_PAGE_TOKEN_TTL_MS));
  return seeOther(raw.href);
}
