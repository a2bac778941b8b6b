import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** What only `npm start`'s own server does, or what serving as Vercel would not change. */
const CUSTOM_SERVER_ONLY = [
  // The custom server's fast paths, page cache, transport refusals and shutdown; on Vercel the platform does these.
  "tests/api/page-cache.test.ts",
  "tests/api/raw-transport.test.ts",
  "tests/api/direct-routes.test.ts",
  "tests/api/malformed-requests.test.ts",
  "tests/api/rolling-restart.test.ts",
  // What the custom server records of each connection: where a request came from (the local sign-in,
  // metrics without a token) and what it served.
  "tests/api/local-sign-in.test.ts",
  "tests/api/metrics.test.ts",
  // The embedded limiter's windows on the test clock; Upstash keeps real time (upstash.test.ts runs here).
  "tests/api/limits-database.test.ts",
  // A fuzz of the HTTP layer too, whose malformed requests reach `next start`'s own parser, not Vercel's edge.
  "tests/api/fuzz.test.ts",
  // ioredis against a self-hosted Redis; serverless deployments use Upstash's client (upstash.test.ts).
  "tests/api/redis-outage.test.ts",
  // Two local `next start` processes do not share Next's cache as Vercel's instances do.
  "tests/api/multi-instance.test.ts",
  // Already served by `next start` with VERCEL=1 in the other projects.
  "tests/api/shared-viewer.test.ts",
  // The purge timer of `npm start`; on Vercel the cron route purges (expiry.test.ts runs there).
  "tests/api/expiry-purge-job.test.ts",
  // Operator commands and the document's tooling, the same whatever serves.
  "tests/api/backup-restore.test.ts",
  "tests/api/openapi-tooling.test.ts",
];

const alias = { "@": fileURLToPath(new URL(".", import.meta.url)) };

// The API suite runs twice, once per database, served by `npm start`; then, on PostgreSQL, as Vercel
// serves it (`next start`, Upstash's client) except the files about what only `npm start` has. Unit tests once.
export default defineConfig({
  resolve: { alias },
  test: {
    globalSetup: ["tests/helpers/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      { resolve: { alias }, test: { name: "sqlite", include: ["tests/api/**/*.test.ts"], env: { TEST_DB: "sqlite" }, testTimeout: 60_000, hookTimeout: 120_000 } },
      { resolve: { alias }, test: { name: "postgres", include: ["tests/api/**/*.test.ts"], env: { TEST_DB: "postgres" }, testTimeout: 60_000, hookTimeout: 120_000 } },
      {
        resolve: { alias },
        test: {
          name: "serverless",
          include: ["tests/api/**/*.test.ts"],
          exclude: CUSTOM_SERVER_ONLY,
          env: { TEST_DB: "postgres", TEST_SERVE: "serverless" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
