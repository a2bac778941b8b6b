import type { NextConfig } from "next";
import { SERVER_ACTION_BODY_MAX_BYTES } from "./lib/config";
import { discoveryLinkHeader } from "./lib/discovery/links";
import { PUBLIC_FILES } from "./lib/serving/public-files";

const PUBLIC_FILE_CACHE = "public, max-age=86400, stale-while-revalidate=604800";

const nextConfig: NextConfig = {
  // Native drivers and resvg (the card's rasterizer), Prisma's runtime and oidc-provider (Koa) load from node_modules at run time instead of being bundled.
  serverExternalPackages: ["better-sqlite3", "pg", "@prisma/client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "ioredis", "oidc-provider", "@resvg/resvg-js"],
  // The built-in patterns are files read at run time (lib/patterns/builtin.ts). The tracer follows that
  // path today; this keeps the folder in every function should it stop (.ci/vercel-build checks).
  outputFileTracingIncludes: { "/**": ["./patterns/**"] },
  poweredByHeader: false,
  // proxy.ts sees the URL Next itself was asked for (with npm start's own host and port), so a rewrite it
  // makes is served in place; with the default, npm start's Next took its rewrites for another host's.
  skipProxyUrlNormalize: true,
  reactStrictMode: true,
  experimental: {
    // Next otherwise loads every route's bundle at start (474 chunks, 20 MB of source that V8 keeps as
    // strings, many modules once per route): a route is loaded on its first request instead (issue 35).
    preloadEntriesOnStart: false,
    // `npm test` turns Turbopack's build cache off on a checkout never built (scripts/test.mjs).
    turbopackFileSystemCacheForBuild: process.env.HTMLDROP_BUILD_CACHE !== "off",
    // The dashboard's "New drop" and "New version" forms post a whole document (and its context), and
    // its pattern form a template (and its Markdown) of the same sizes, to a server action; the front
    // door refuses a larger body it can see coming (lib/api/server-actions.ts).
    serverActions: { bodySizeLimit: SERVER_ACTION_BODY_MAX_BYTES },
  },
  async headers() {
    // The landing page advertises the discovery documents (RFC 8288 Link).
    return [
      { source: "/", headers: [{ key: "Link", value: discoveryLinkHeader() }] },
      // public/'s icons and robots.txt change only with a release: a day fresh, then revalidated (Next's default is max-age=0).
      { source: `/:file(${PUBLIC_FILES.map((name) => name.replaceAll(".", "\\.")).join("|")})`, headers: [{ key: "Cache-Control", value: PUBLIC_FILE_CACHE }] },
    ];
  },
};

export default nextConfig;
