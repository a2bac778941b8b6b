// POST /p/<slug>/view: the viewer page's beacon, one per page view. Cached pages are never rendered
// per view, so the page itself reports that it was shown: a request with no body, no cookie set and
// no Next render, counted in the same batches as before. The rule (README, "View counts"): a view is
// counted when a browser shows the page on htmldrop's own origin; prefetches, other sites' requests,
// self-announced bots, views of an expired drop and the owner's own views while signed in are not.
// `?v=N` names the version shown (the latest without it), for the per-day, per-version counters.
import { sessionUserId } from "@/lib/auth/session-cookie";
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { isExpired } from "@/lib/drops/expiry";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { findViewerState } from "./lookup";
import { header, type RawRequest, type RawResponse } from "./raw";
import { hasValidUnlockCookie } from "./unlock";
import { flushViewCounts, recordView } from "./views";

const VIEW_BEACON_PATH = /^\/p\/([^/?#]+)\/view(?:\?v=([1-9][0-9]{0,8}))?$/;
// Crawlers, link unfurlers and monitors that say what they are.
const ANNOUNCED_BOT = /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|embedly|preview|pingdom|uptime|lighthouse|monitor/i;

export function viewBeaconPath(slug: string, version: number): string {
  return `/p/${slug}/view?v=${version}`;
}

export function isViewBeaconPath(url: string | undefined): boolean {
  return url !== undefined && url.startsWith("/p/") && VIEW_BEACON_PATH.test(url);
}

function answer(status: number, body?: { code: string; message: string }): RawResponse {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (!body) return { status, headers, body: null };
  const json = Buffer.from(JSON.stringify({ error: body }));
  return { status, headers: { ...headers, "content-type": "application/json; charset=utf-8", "content-length": String(json.length) }, body: [json] };
}

/** Sent by a page of this origin: Sec-Fetch-Site says so in current browsers, Origin in older ones. */
function isSameOrigin(request: RawRequest): boolean {
  const site = header(request.headers, "sec-fetch-site");
  if (site !== undefined) return site === "same-origin";
  return header(request.headers, "origin") === new URL(getConfig().publicUrl).origin;
}

function isPrefetch(request: RawRequest): boolean {
  return /prefetch|prerender/i.test(`${header(request.headers, "sec-purpose") ?? ""} ${header(request.headers, "purpose") ?? ""}`);
}

/** The owner looking at their own drop while signed in; only a request carrying a session cookie pays for the check. */
async function isOwner(request: RawRequest, ownerId: string): Promise<boolean> {
  return (await sessionUserId(header(request.headers, "cookie"))) === ownerId;
}

export async function countView(request: RawRequest): Promise<RawResponse> {
  try {
    if (request.method !== "POST") {
      const refused = answer(405, { code: "invalid_arg", message: "Views are reported with POST." });
      return { ...refused, headers: { ...refused.headers, allow: "POST" } };
    }
    if (!isSameOrigin(request)) return answer(403, { code: "forbidden", message: "Views are counted only from htmldrop's own pages." });
    // Vercel's route handler passes an absolute URL, server.ts the request target.
    const target = new URL(request.url, "http://localhost");
    const [, encodedSlug = "", versionParam] = VIEW_BEACON_PATH.exec(`${target.pathname}${target.search}`) ?? [];
    const slug = SLUG_PATTERN.test(encodedSlug) ? encodedSlug : "";
    const drop = slug ? await findViewerState(slug) : null;
    const at = now();
    if (!drop || isExpired(drop.expiresAt, at)) return answer(404, { code: "not_found", message: "There is no drop at this address." });
    const version = versionParam === undefined ? drop.latestVersion : Number(versionParam);
    if (version > drop.versionSeq) return answer(404, { code: "version_not_found", message: `Drop ${slug} has no version ${version}.` });
    // A locked drop's view counts only from a browser that unlocked it.
    if (drop.passcodeHash !== null && !hasValidUnlockCookie(slug, drop.passcodeHash, header(request.headers, "cookie"))) {
      return answer(403, { code: "forbidden", message: "This drop is locked." });
    }
    if (!isPrefetch(request) && !ANNOUNCED_BOT.test(header(request.headers, "user-agent") ?? "") && !(await isOwner(request, drop.ownerId))) {
      recordView(drop.dropId, version, at);
      void flushViewCounts();
    }
    return answer(204);
  } catch (error) {
    console.error("htmldrop: view beacon failed", error);
    return answer(503, { code: "service_unavailable", message: "The view could not be counted right now." });
  }
}
