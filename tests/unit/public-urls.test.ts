import { describe, expect, it } from "vitest";
import {
  isInternalPagePath,
  isPublicRouteHandlerPath,
  missingPagePath,
  parsePublicPath,
  parseVersionParam,
  publicPath,
  publicUrl,
  routeAt,
  sharedViewerPath,
  slugInDropUrl,
  viewerPath,
  type InternalRoute,
  type PublicRoute,
} from "@/lib/drops/public-urls";

const SLUG = "abc123def";

describe("publicPath and parsePublicPath", () => {
  const shapes: { route: Exclude<PublicRoute, InternalRoute>; built: string; version: number | null }[] = [
    { route: "viewer", built: `/p/${SLUG}`, version: null },
    { route: "viewer", built: `/p/${SLUG}?v=3`, version: 3 },
    { route: "raw", built: `/p/${SLUG}/raw?v=3`, version: 3 },
    { route: "raw", built: `/p/${SLUG}/raw`, version: null },
    { route: "full", built: `/p/${SLUG}/full?v=12`, version: 12 },
    { route: "og", built: `/p/${SLUG}/og.png?v=1`, version: 1 },
    { route: "live", built: `/p/${SLUG}/live.json`, version: null },
    { route: "unlock", built: `/p/${SLUG}/unlock`, version: null },
    { route: "lock", built: `/p/${SLUG}/lock`, version: null },
    { route: "view", built: `/p/${SLUG}/view?v=2`, version: 2 },
    { route: "comments", built: `/p/${SLUG}/comments`, version: null },
    { route: "compare", built: `/p/${SLUG}/compare`, version: null },
  ];

  it.each(shapes)("builds $built and parses it back", ({ route, built, version }) => {
    expect(publicPath(SLUG, route, { v: version })).toBe(built);
    const parsed = parsePublicPath(built);
    expect(parsed).toMatchObject({ route, slug: SLUG, encodedSlug: SLUG, version, plain: true });
  });

  it("builds absolute URLs on the origin given, with the query in the order given", () => {
    expect(publicUrl("https://drops.example", SLUG, "raw", { v: 4, unlock: "123.abc_-" })).toBe(`https://drops.example/p/${SLUG}/raw?v=4&unlock=123.abc_-`);
    expect(publicUrl("https://app.example", SLUG)).toBe(`https://app.example/p/${SLUG}`);
    expect(publicPath(SLUG, "compare", { from: 1, to: 2 })).toBe(`/p/${SLUG}/compare?from=1&to=2`);
    expect(publicPath(SLUG, "viewer", { v: 2, comments_page: null, error: undefined })).toBe(`/p/${SLUG}?v=2`);
    expect(viewerPath(SLUG, 7)).toBe(`/p/${SLUG}?v=7`);
    expect(sharedViewerPath(SLUG, null)).toBe(`/p/${SLUG}/shared/latest`);
    expect(sharedViewerPath(SLUG, 5)).toBe(`/p/${SLUG}/shared/5`);
  });

  it("percent-encodes what is not a slug, so a built URL never names another path", () => {
    expect(publicPath("a/b?c", "comments")).toBe("/p/a%2Fb%3Fc/comments");
  });

  it("reads an absolute URL from its path, and a compare page's query as given", () => {
    expect(parsePublicPath(`https://drops.example/p/${SLUG}/raw?v=2&unlock=x`)).toMatchObject({ route: "raw", slug: SLUG, version: 2, plain: false });
    expect(parsePublicPath(`/p/${SLUG}/compare?from=1&to=2`)?.query.get("from")).toBe("1");
  });

  it("accepts a trailing slash where the pages always have, and nowhere else", () => {
    expect(parsePublicPath(`/p/${SLUG}/`)?.route).toBe("viewer");
    expect(parsePublicPath(`/p/${SLUG}/compare/`)?.route).toBe("compare");
    expect(parsePublicPath(`/p/${SLUG}/raw/`)?.route).toBe("raw");
    for (const page of ["full", "og.png", "live.json", "unlock", "lock", "view", "comments"]) expect(parsePublicPath(`/p/${SLUG}/${page}/`)).toBeNull();
  });

  it("names the internal pages (the shared viewer, the missing page), which are never public, and any path below them", () => {
    expect(parsePublicPath(`/p/${SLUG}/shared`)?.route).toBe("shared");
    expect(parsePublicPath(`/p/${SLUG}/shared/latest`)?.route).toBe("shared");
    expect(missingPagePath(SLUG, "version")).toBe(`/p/${SLUG}/missing/version`);
    expect(parsePublicPath(missingPagePath(SLUG, "drop"))?.route).toBe("missing");
    for (const path of [sharedViewerPath(SLUG, 2), missingPagePath(SLUG, "drop"), `/p/${SLUG}/missing`]) expect(isInternalPagePath(path)).toBe(true);
    for (const path of [viewerPath(SLUG), publicPath(SLUG, "compare"), "/p//missing/drop", "/dashboard"]) expect(isInternalPagePath(path)).toBe(false);
  });

  it("rejects URLs that are not a drop's", () => {
    for (const url of ["/", "/api/drops", "/pp/abc", `/p/${SLUG}/unknown`, `/p/${SLUG}/raw/extra`, `/p/${SLUG}/og.png/x`]) expect(parsePublicPath(url)).toBeNull();
  });

  it("keeps a malformed slug apart from the route it asks for", () => {
    expect(parsePublicPath("/p/NOT_A_SLUG/raw")).toMatchObject({ route: "raw", slug: null });
    expect(parsePublicPath("/p/%E0%A4%A/raw")).toMatchObject({ route: "raw", slug: null });
    expect(parsePublicPath("/p//raw")).toMatchObject({ route: "raw", slug: null, encodedSlug: "" });
    expect(parsePublicPath("/p/%61bcdef")).toMatchObject({ route: "viewer", slug: "abcdef", encodedSlug: "%61bcdef" });
  });

  it("reads ?v=: malformed or repeated is invalid, except that raw takes the first", () => {
    expect(parsePublicPath(`/p/${SLUG}?v=abc`)?.version).toBe("invalid");
    expect(parsePublicPath(`/p/${SLUG}?v=0`)?.version).toBe("invalid");
    expect(parsePublicPath(`/p/${SLUG}?v=1234567890`)?.version).toBe("invalid");
    expect(parsePublicPath(`/p/${SLUG}/og.png?v=1&v=1`)?.version).toBe("invalid");
    expect(parsePublicPath(`/p/${SLUG}/raw?v=1&v=2`)?.version).toBe(1);
    expect(parsePublicPath(`/p/${SLUG}/raw?v=x&v=2`)?.version).toBe("invalid");
  });

  it("calls plain only nothing or exactly ?v=N, without a fragment", () => {
    expect(parsePublicPath(`/p/${SLUG}`)?.plain).toBe(true);
    expect(parsePublicPath(`/p/${SLUG}?v=2`)?.plain).toBe(true);
    expect(parsePublicPath(`/p/${SLUG}?`)?.plain).toBe(false);
    expect(parsePublicPath(`/p/${SLUG}?v=2&x=1`)?.plain).toBe(false);
    expect(parsePublicPath(`/p/${SLUG}?comments_page=2`)?.plain).toBe(false);
    expect(parsePublicPath(`/p/${SLUG}#top`)?.plain).toBe(false);
  });
});

describe("the helpers around it", () => {
  it("knows which paths are route handlers", () => {
    for (const page of ["unlock", "lock", "view", "comments", "full", "og.png", "live.json"]) expect(isPublicRouteHandlerPath(`/p/${SLUG}/${page}`)).toBe(true);
    for (const path of [`/p/${SLUG}`, `/p/${SLUG}/compare`, `/p/${SLUG}/raw`, "/p//unlock", `/p/${SLUG}/unlock/`]) expect(isPublicRouteHandlerPath(path)).toBe(false);
  });

  it("finds the drop of any URL under /p/, known page or not", () => {
    expect(slugInDropUrl(`/p/${SLUG}/whatever?v=1`)).toBe(SLUG);
    expect(slugInDropUrl("/p/NOPE")).toBeNull();
    expect(slugInDropUrl(null)).toBeNull();
  });

  it("reads a version parameter as Next hands it over", () => {
    expect(parseVersionParam(undefined)).toBeNull();
    expect(parseVersionParam("5")).toBe(5);
    expect(parseVersionParam(["5", "6"])).toBe("invalid");
    expect(parseVersionParam("")).toBe("invalid");
  });

  it("names the path of a [slug] parameter", () => {
    expect(routeAt("lock", SLUG)).toMatchObject({ route: "lock", slug: SLUG, version: null });
    expect(routeAt("lock", "a/b").slug).toBeNull();
  });
});
