// POST /p/<slug>/view: the viewer page's beacon, one per page view. Cached pages are never rendered
// per view, so the page itself reports that it was shown: a request with no body, no cookie set and
// no Next render, counted in the same batches as before. The rule (README, "View counts"): a view is
// counted when a browser shows the page on htmldrop's own origin; prefetches, other sites' requests,
// self-announced bots, views of an expired drop and the owner's own views while signed in are not, and a
// client counts at most once per drop and version in each window of the viewsPerClient limit.
// `?v=N` names the version shown (the latest without it), for the per-day, per-version counters.
import { sessionUserId } from "@/lib/auth/session-cookie";
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { decideAccess, dropStateOf, namesNothing } from "@/lib/drops/access-decision";
import { parsePublicPath } from "@/lib/drops/public-urls";
import { rateLimitBackend, rateLimitPolicies } from "@/lib/ratelimit";
import { windowOf } from "@/lib/ratelimit/types";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { hashSecret } from "@/lib/security/tokens";
import { findViewerState, viewedDrop } from "./lookup";
import { header, type RawRequest, type RawResponse } from "./raw";
import { viewerOn } from "@/lib/sharing/standing";
import { passcodeUnlock } from "./unlock";
import { flushViewCounts, recordView } from "./views";

// Crawlers, link unfurlers and monitors that say what they are.
const ANNOUNCED_BOT = /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|embedly|preview|pingdom|uptime|lighthouse|monitor/i;

/** The beacon's URL is only ever built by publicPath, never percent-encoded: any other spelling is not its own. */
function beaconOf(url: string) {
  const path = parsePublicPath(url);
  return path?.route === "view" && path.plain && path.slug === path.encodedSlug ? path : null;
}

export function isViewBeaconPath(url: string | undefined): boolean {
  return url !== undefined && beaconOf(url) !== null;
}

function answer(status: number, body?: { code: string; message: string }): RawResponse {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (!body) return { status, headers, body: null };
  const json = Buffer.from(JSON.stringify({ error: body }));
  return { status, headers: { ...headers, "content-type": "application/json; charset=utf-8", "content-length": String(json.length) }, body: json };
}

function noDrop(): RawResponse {
  return answer(404, { code: "not_found", message: "There is no drop at this address." });
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

// Views already counted in this process, by key, with their window: a flood from one client costs no
// write after its first beacon. Bounded; a key pushed out is decided by the shared counter again.
const SEEN_MAX = 20_000;
const SEEN_KEY = Symbol.for("htmldrop.view-beacon-seen");
type SeenHolder = { [SEEN_KEY]?: Map<string, number> };

/**
 * Whether this is the client's first view of this version of the drop in the current window, on any
 * instance. The key is a keyed hash, so the counters hold nothing about the viewer.
 */
async function isFirstViewInWindow(request: RawRequest, dropId: string, version: number, at: number): Promise<boolean> {
  const client = clientKeyFromHeaders({ get: (name) => header(request.headers, name) ?? null });
  const key = hashSecret(`view\0${dropId}\0${version}\0${client}`).slice(0, 32);
  const policy = rateLimitPolicies().viewsPerClient;
  const window = windowOf(at, policy.windowMs).index;
  const seen = ((globalThis as SeenHolder)[SEEN_KEY] ??= new Map());
  if (seen.get(key) === window) return false;
  seen.delete(key);
  seen.set(key, window);
  if (seen.size > SEEN_MAX) seen.delete(seen.keys().next().value!);
  try {
    return (await rateLimitBackend().hit(`viewsPerClient:${key}`, policy.limit, policy.windowMs)).success;
  } catch (error) {
    // Uncounted (the beacon answers 503): the next beacon of the window may try again.
    seen.delete(key);
    throw error;
  }
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
    const path = beaconOf(`${target.pathname}${target.search}`);
    if (path === null || namesNothing(path)) return noDrop();
    const slug = path.slug!;
    const drop = await findViewerState(slug);
    const at = now();
    const version = typeof path.version === "number" ? path.version : (drop?.latestVersion ?? 0);
    const state = drop && dropStateOf(drop, version <= drop.versionSeq);
    const cookieHeader = header(request.headers, "cookie");
    const viewer = await viewerOn(drop && viewedDrop(drop), { slug, cookieHeader }, passcodeUnlock(slug, drop?.passcodeHash ?? null, cookieHeader));
    const decision = decideAccess(path, state, viewer, at);
    if (decision.answer === "version_not_found") return answer(404, { code: "version_not_found", message: `Drop ${slug} has no version ${version}.` });
    // A locked drop's view counts only from a browser that unlocked it.
    if (decision.answer === "gate") return answer(403, { code: "forbidden", message: "This drop is locked." });
    if (decision.answer !== "serve" || drop === null) return noDrop();
    const counts = !isPrefetch(request) && !ANNOUNCED_BOT.test(header(request.headers, "user-agent") ?? "") && !(await isOwner(request, drop.ownerId));
    if (counts && (await isFirstViewInWindow(request, drop.dropId, version, at))) {
      recordView(drop.dropId, version, at);
      void flushViewCounts();
    }
    return answer(204);
  } catch (error) {
    console.error("htmldrop: view beacon failed", error);
    return answer(503, { code: "service_unavailable", message: "The view could not be counted right now." });
  }
}
