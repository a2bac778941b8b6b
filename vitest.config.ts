import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

type ApiProject = "sqlite" | "postgres" | "serverless";

/**
 * API files that do not run on all three projects, and why. A file runs where what it tests can differ:
 * the database (SQLite, PostgreSQL) or the way the app is served (`npm start`, or as Vercel serves it).
 * Every other file runs on all three.
 */
const RUNS_ONLY_ON: Record<string, ApiProject[]> = {
  // What only `npm start`'s own server does, on both databases; on Vercel the platform does these.
  "tests/api/page-cache.test.ts": ["sqlite", "postgres"], // the page cache and its invalidation through the database
  "tests/api/direct-routes.test.ts": ["sqlite", "postgres"], // the front door's own routes, which read the database themselves
  "tests/api/rolling-restart.test.ts": ["sqlite", "postgres"], // npm start's shutdown, which drains each database's connections
  "tests/api/metrics.test.ts": ["sqlite", "postgres"], // npm start's metrics, which count PostgreSQL's pool
  "tests/api/limits-database.test.ts": ["sqlite", "postgres"], // the embedded limiter's windows, kept in the database; Redis's are in limits, upstash and multi-instance
  "tests/api/fuzz.test.ts": ["sqlite", "postgres"], // malformed requests reach npm start's own parser, not Vercel's edge
  "tests/api/multi-instance.test.ts": ["sqlite", "postgres"], // two npm start processes; next start's do not share Next's cache as Vercel's do
  "tests/api/shared-viewer.test.ts": ["sqlite", "postgres"], // already served by next start with VERCEL=1
  "tests/api/expiry-purge-job.test.ts": ["sqlite", "postgres"], // npm start's purge timer; on Vercel the cron route purges (expiry.test.ts)
  "tests/api/backup-restore.test.ts": ["sqlite", "postgres"], // operator commands, one per database
  "tests/api/webhooks.test.ts": ["sqlite", "postgres"], // npm start's delivery timer and the outbox on each database; the cron route is called there too
  "tests/api/webhooks-instances.test.ts": ["sqlite", "postgres"], // two npm start processes claiming deliveries: FOR UPDATE SKIP LOCKED, or SQLite's conditional UPDATE
  "tests/api/notifications.test.ts": ["sqlite", "postgres"], // npm start's email timer, the digest's upsert and claim (raw SQL on each database)
  // The HTTP layer of `npm start` and what no database changes: once.
  "tests/api/malformed-requests.test.ts": ["sqlite"], // npm start's answers to what Node.js cannot parse
  "tests/api/large-bodies.test.ts": ["sqlite"], // npm start's lingering close; on Vercel the platform receives and caps bodies
  "tests/api/closed-log-pipe.test.ts": ["sqlite"], // npm start's own process and its log streams
  "tests/api/env-files.test.ts": ["sqlite"], // npm start's and the operator commands' reading of .env files
  "tests/api/raw-transport.test.ts": ["sqlite"], // npm start's compression of raw pages; on Vercel the CDN's
  "tests/api/local-sign-in.test.ts": ["sqlite"], // npm start's record of where a connection came from
  "tests/api/redis-outage.test.ts": ["sqlite"], // ioredis against a self-hosted Redis; serverless uses Upstash's client
  "tests/api/openapi-tooling.test.ts": ["sqlite"], // the document's tooling, the same whatever serves or stores
  "tests/api/scopes.test.ts": ["sqlite"], // each operation's scope, decided from the registry before anything is stored or served
  "tests/api/cli.test.ts": ["sqlite"], // the command-line client end to end (sign-in, upsert, a retried publish, watch): an HTTP client, whatever stores
  // What the way it is served changes, and no database: once on each side.
  "tests/api/discovery.test.ts": ["sqlite", "serverless"], // documents made from the configuration, served from npm start's cache or by Next
  "tests/api/auth-callback-url.test.ts": ["sqlite", "serverless"], // next-auth's redirects behind each kind of server
  "tests/api/previews.test.ts": ["sqlite", "serverless"], // drawing cards and serving them, through each kind of server
  "tests/api/server-actions.test.ts": ["sqlite", "serverless"], // Next's server actions behind npm start's front door or alone
  "tests/api/upstash.test.ts": ["serverless"], // @upstash/redis, the client that runs on Vercel
  "tests/api/mcp.test.ts": ["sqlite", "serverless"], // MCP through the front door or Next; what it stores is drops.test's
  "tests/api/mcp-conformance.test.ts": ["sqlite"], // the official suite against the protocol; mcp.test checks what the front door and Next each do to it
  "tests/api/diff.test.ts": ["sqlite", "serverless"], // the compare page from the page cache or Next's shared page; diffing stores nothing
  "tests/api/live-version.test.ts": ["sqlite", "serverless"], // the live document from the front door on SQLite, or Next's route handler on PostgreSQL
  "tests/api/oauth-negative.test.ts": ["sqlite", "serverless"], // the OAuth server's refusals, and its per-address limits behind each kind of server
  "tests/api/passcode-attempts.test.ts": ["sqlite", "serverless"], // the client's address behind a declared proxy or Vercel's edge; each database's windows are limits-database's
  // What the services store through Prisma's own queries (no SQL of their own) and any server hands them:
  // SQLite behind npm start and PostgreSQL as Vercel serves cover both databases and both servers.
  "tests/api/comments.test.ts": ["sqlite", "serverless"], // the policies, anchors and replies, through the viewer's form and REST
  "tests/api/oauth-connect.test.ts": ["sqlite", "serverless"], // the SDK's client connecting by URL; oidc-provider's records through Prisma
  "tests/api/device-auth.test.ts": ["sqlite", "serverless"], // the device flow and its per-client poll limits
  "tests/api/health.test.ts": ["sqlite", "serverless"], // each dependency's state, no token, nothing cached
  // What the services decide, whichever server hands them the request: once per database.
  "tests/api/tokens.test.ts": ["sqlite", "postgres"], // token hashing, prefixes and accounts
  "tests/api/token-grants.test.ts": ["sqlite", "postgres"], // what a new token may be granted
  "tests/api/concurrency.test.ts": ["sqlite", "postgres"], // each database's transactions under concurrent writes
  "tests/api/patterns.test.ts": ["sqlite", "postgres"], // an account's patterns, stored and listed
  "tests/api/sharing-org.test.ts": ["sqlite", "postgres"], // the org boundary and invitations by email, read from each database
  "tests/api/sharing.test.ts": ["sqlite", "postgres"], // who opens what; its people are one account each only where sign-in and tokens share accounts
  // PostgreSQL's own behaviour, and how each server answers it.
  "tests/api/database-outage.test.ts": ["postgres", "serverless"], // PostgreSQL going away; SQLite's lock timeout is a unit test
  "tests/api/nul-characters.test.ts": ["sqlite", "postgres"], // what each database's text type can store
};

const alias = { "@": fileURLToPath(new URL(".", import.meta.url)) };

function apiProject(name: ApiProject, env: Record<string, string>) {
  const elsewhere = Object.entries(RUNS_ONLY_ON)
    .filter(([, on]) => !on.includes(name))
    .map(([file]) => file);
  // Files reuse their worker's process (isolate: false): an API file changes no module state of its own
  // (its servers are other processes), and each fresh process re-imported pg, the MCP SDK and
  // oidc-provider, about 0.4 s of CPU a file.
  return { resolve: { alias }, test: { name, include: ["tests/api/**/*.test.ts"], exclude: elsewhere, env, isolate: false, testTimeout: 60_000, hookTimeout: 120_000 } };
}

// The API suite runs on SQLite and on PostgreSQL served by `npm start`, and on PostgreSQL as Vercel
// serves it (`next start`, Upstash's client), each file where it can differ (RUNS_ONLY_ON). Unit tests once.
// The files start servers and wait on them, so more of them run at once than there are cores.
export default defineConfig({
  resolve: { alias },
  test: {
    globalSetup: ["tests/helpers/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 3,
    projects: [
      // Some unit tests start commands or wait on PostgreSQL and Redis: Vitest's 5 s default fails them on a busy machine.
      // --expose-gc as npm start runs: the card worker collects after each card (lib/previews/card-worker.ts).
      { resolve: { alias }, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], testTimeout: 30_000, execArgv: ["--expose-gc"] } },
      apiProject("sqlite", { TEST_DB: "sqlite" }),
      apiProject("postgres", { TEST_DB: "postgres" }),
      apiProject("serverless", { TEST_DB: "postgres", TEST_SERVE: "serverless" }),
    ],
  },
});
