import type { NextConfig } from "next";
import { discoveryLinkHeader } from "./lib/discovery/links";

const nextConfig: NextConfig = {
  // Native drivers, Prisma's runtime and oidc-provider (Koa) load from node_modules at run time instead of being bundled.
  serverExternalPackages: ["better-sqlite3", "pg", "@prisma/client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "ioredis", "oidc-provider"],
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    // The landing page advertises the discovery documents (RFC 8288 Link).
    return [{ source: "/", headers: [{ key: "Link", value: discoveryLinkHeader() }] }];
  },
};

export default nextConfig;
