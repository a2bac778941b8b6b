// Starts the real service (`node scripts/start.mjs`, exactly what `npm start` runs) on a free port against a
// disposable database: a fresh SQLite folder, or a fresh PostgreSQL schema when TEST_DB=postgres.
// TEST_SERVE=serverless serves it as Vercel does instead: `next start` with VERCEL=1 behind a stand-in
// for Vercel's edge, rate limits through Upstash's client, sign-in through an OpenID Connect provider.
import { type ChildProcess, spawn, execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { isLoopbackHost } from "@/lib/config";
import { compiledCommand, mintToken, releaseMinterDatabase } from "./fixture-commands";
import { startIdentityProvider, type IdentityProvider } from "./identity-provider";
import { startUpstashBridge, type UpstashBridge } from "./upstash-bridge";
import { startVercelEdge, type VercelEdge } from "./vercel-edge";

const ROOT = join(import.meta.dirname, "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export type TestDb = "sqlite" | "postgres";

export function testDb(): TestDb {
  return process.env.TEST_DB === "postgres" ? "postgres" : "sqlite";
}

/** Whether this run serves as Vercel does (the "serverless" test project): see StartOptions.serverless. */
export function servesServerless(): boolean {
  return process.env.TEST_SERVE === "serverless";
}

/** The lowest port the kernel gives outgoing connections (and `listen(0)`). */
const EPHEMERAL_PORTS_START = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
const FIRST_CHOSEN_PORT = 10_000;
/** Above FIRST_CHOSEN_PORT, the one port of the Fetch standard's "bad port" list: fetch and Chromium refuse it. */
const FETCH_BAD_PORT = 10_080;

/**
 * The test runner's workers choose ports from bands of their own (Vitest's VITEST_POOL_ID is 1 to
 * maxWorkers, Playwright's TEST_PARALLEL_INDEX from 0): two workers that chose at once could otherwise
 * both find a port free before either server listened, and the second listen fails with EADDRINUSE.
 */
const PORT_BANDS = 8;
const workerIndex = Number(process.env.VITEST_POOL_ID ?? (process.env.TEST_PARALLEL_INDEX !== undefined ? Number(process.env.TEST_PARALLEL_INDEX) + 1 : 0));
const bandSize = Math.floor(Math.max(EPHEMERAL_PORTS_START - FIRST_CHOSEN_PORT, 8_000) / PORT_BANDS);
const bandStart = FIRST_CHOSEN_PORT + (workerIndex % PORT_BANDS) * bandSize;
/** Ports this process handed out within a server's start timeout, which may not be listened on yet. */
const recentlyChosen = new Map<number, number>();
const CHOSEN_PORT_HELD_MS = 60_000;

/**
 * A port no socket holds now, below the ephemeral range, tried at random in this worker's band. A
 * caller leaves it unbound for seconds until its server listens; an ephemeral port could meanwhile become
 * an outgoing connection's local port (to PostgreSQL, say), which makes that listen fail with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = bandStart + Math.floor(Math.random() * bandSize);
    if (port === FETCH_BAD_PORT || Date.now() - (recentlyChosen.get(port) ?? -Infinity) < CHOSEN_PORT_HELD_MS) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      // Every address, as the servers listen (`::`, which takes IPv4 too).
      server.listen(port, () => server.close(() => resolve(true)));
    });
    if (free) {
      recentlyChosen.set(port, Date.now());
      return port;
    }
  }
}

export type ApiResult<T = any> = { status: number; headers: Headers; body: T; text: string };

export type TestApp = {
  baseUrl: string;
  env: Record<string, string>;
  /** How a person signs in: the local sign-in, or (serving as Vercel does) the test's identity provider. */
  signsInThrough: "local" | "identity-provider";
  /** What the admin command does (in one process per server, fixture-commands.ts): creates the local account if needed and returns a new token. */
  createToken(login: string, label?: string): Promise<string>;
  api<T = any>(path: string, init?: { method?: string; token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<ApiResult<T>>;
  /** Queries the app's database directly, for facts the API does not expose (blob rows, counters) and to stage old data. */
  sql<T = Record<string, unknown>>(query: string): Promise<T[]>;
  logs(): string;
  /** Closes the reading ends of the server's stdout and stderr, as a log collector that exits does; answers the server's pid. */
  closeOutput(): number;
  /** Runs one of the service's commands (`scripts/<name>.ts`) with the server's environment. */
  command(script: string, args?: string[]): Promise<{ stdout: string; stderr: string }>;
  /**
   * Stops the server and starts it again on the same port, data folder and database, with `env` laid
   * over the first one's, after `whileStopped` has run.
   */
  restart(env?: Record<string, string>, whileStopped?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
};

async function createSchema(): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const url = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;
  return {
    url,
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

function waitForListening(child: ChildProcess, output: () => string, readyLine: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Killed, not left behind: a server that starts after its test gave up would run on, unowned.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start within 60 s:\n${output()}`));
    }, 60_000);
    const onData = () => {
      if (output().includes(readyLine)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code}:\n${output()}`));
    });
  });
}

/** `npm start`'s arguments to node (its V8 flags and script), read from package.json so tests run exactly that. */
function startArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const [program, ...args] = scripts.start.split(/\s+/);
  if (program !== "node") throw new Error(`npm start runs ${program}, not node`);
  return args;
}

/** Ports of the services the server may need outside its private network: PostgreSQL and Redis. */
const OUTWARD_PORTS = [5432, 6379];

function bridge(server: Server, target: () => ReturnType<typeof connect>): Server {
  return server.on("connection", (socket) => {
    const other = target();
    socket.pipe(other).pipe(socket);
    socket.on("error", () => other.destroy());
    other.on("error", () => socket.destroy());
  });
}

function listening(server: Server, where: number | string): Promise<Server> {
  return new Promise((resolve, reject) => server.once("error", reject).listen(where, () => resolve(server)));
}

/**
 * The host side of a private network: the server's port here leads to the server inside, and the
 * services it needs (OUTWARD_PORTS) are offered to it as Unix sockets in `dir`.
 */
async function bridgePrivateNetwork(port: number, dir: string): Promise<Server[]> {
  const outward = OUTWARD_PORTS.map((target) => listening(bridge(createServer(), () => connect(target, "127.0.0.1")), join(dir, `outward-${target}.sock`)));
  const inward = listening(bridge(createServer(), () => connect(join(dir, "inward.sock"))), port);
  return Promise.all([...outward, inward]);
}

/**
 * A directory that looks like the checkout (every entry a link to it) and holds these `.env` files of
 * its own, for `startApp({ cwd })`: the checkout's own `.env` files must stay as they are while other
 * tests run.
 */
export function checkoutWithEnvFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "htmldrop-checkout-"));
  for (const entry of readdirSync(ROOT)) {
    if (entry !== ".git" && !entry.startsWith(".env")) symlinkSync(join(ROOT, entry), join(dir, entry));
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

type StartOptions = {
  env?: Record<string, string>;
  /** Where `npm start` and `command` run; default the checkout. (checkoutWithEnvFiles makes one with its own `.env` files.) */
  cwd?: string;
  /** Rewrites the PostgreSQL URL the server gets (to route it through a proxy); `sql` still connects directly. */
  databaseUrl?: (url: string) => string;
  /**
   * Run the server in a network namespace of its own (`unshare -n`, needs root), reached through
   * the same port here, with trap listeners on these ports of 127.0.0.1 and ::1 inside: any
   * connection to them is reported in the logs as `htmldrop-test: trapped …`.
   */
  privateNetwork?: { traps: number[] };
  /**
   * Serve with `next start`, as Vercel serves: no custom server (so no fast paths or page cache), the
   * database migrated beforehand by `npm run db:migrate`. Defaults to servesServerless(), which also
   * stands in for the rest of Vercel: VERCEL=1, an edge in front that sets `x-real-ip`, limits through
   * @upstash/redis to a bridge to the real Redis (unless `env` names a store) and sign-in through an
   * OpenID Connect provider (unless `env` names one).
   */
  serverless?: boolean;
};

export async function startApp(options: StartOptions = {}): Promise<TestApp> {
  // A caller may pick the port (to point CONTENT_ORIGIN at the same server under another host name).
  let port = options.env?.PORT ? Number(options.env.PORT) : await freePort();
  while (options.privateNetwork?.traps.includes(port)) port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "htmldrop-test-"));
  const database = testDb() === "postgres" ? await createSchema() : null;
  const serverless = options.serverless ?? servesServerless();
  const asVercel = serverless && servesServerless();
  const baseUrl = options.env?.PUBLIC_URL ?? `http://localhost:${port}`;
  const namesStore = ["REDIS_URL", "UPSTASH_REDIS_REST_URL"].some((name) => options.env?.[name] !== undefined);
  const namesSignIn = ["AUTH_OIDC_ISSUER", "AUTH_GITHUB_ID", "AUTH_DEV_LOGIN"].some((name) => options.env?.[name] !== undefined);
  const upstash: UpstashBridge | null = asVercel && !namesStore ? await startUpstashBridge() : null;
  const identityProvider: IdentityProvider | null = asVercel && !namesSignIn ? await startIdentityProvider(await freePort(), baseUrl) : null;
  // Behind the edge, the function listens on a port of its own.
  const servedPort = asVercel ? await freePort() : port;
  const env: Record<string, string> = {
    PORT: String(port),
    DATA_DIR: dataDir,
    NEXT_TELEMETRY_DISABLED: "1",
    ...(database ? { DATABASE_URL: options.databaseUrl?.(database.url) ?? database.url } : {}),
    // As on Vercel, PUBLIC_URL is set: the function's own port is not the public one.
    ...(asVercel ? { VERCEL: "1", PUBLIC_URL: baseUrl } : {}),
    ...(upstash ? { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token } : {}),
    ...identityProvider?.env,
    // Passcodes hashed at scrypt's lowest cost: a few milliseconds of CPU each, not 150. Only the cost
    // differs (tests/unit/passcodes.test.ts holds the default's), and a public URL refuses it.
    ...(isLoopbackHost(new URL(baseUrl).hostname) ? { HTMLDROP_TEST_PASSCODE_COST: "10" } : {}),
    ...options.env,
  };
  // The server decides its own NODE_ENV, as under `npm start`.
  let childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete (childEnv as Record<string, string | undefined>).NODE_ENV;
  let output = "";
  const bridges = options.privateNetwork ? await bridgePrivateNetwork(port, dataDir) : [];
  const [command, args] = options.privateNetwork
    ? ["unshare", ["-n", TSX, join(ROOT, "tests", "helpers", "private-network.ts")]]
    : serverless
      ? [process.execPath, [join(ROOT, "node_modules", "next", "dist", "bin", "next"), "start", "--port", String(servedPort)]]
      : [process.execPath, startArguments()];
  if (serverless) await promisify(execFile)(process.execPath, [await compiledCommand("migrate")], { cwd: ROOT, env: childEnv });
  if (options.privateNetwork) {
    Object.assign(childEnv, {
      HTMLDROP_NETNS_DIR: dataDir,
      HTMLDROP_NETNS_START: JSON.stringify([process.execPath, ...startArguments()]),
      HTMLDROP_NETNS_TRAPS: options.privateNetwork.traps.join(","),
      HTMLDROP_NETNS_OUTWARD: OUTWARD_PORTS.join(","),
    });
  }
  const launch = async () => {
    const before = output.length;
    const started = spawn(command, args, { cwd: options.cwd ?? ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    started.stdout.on("data", (chunk) => (output += chunk));
    started.stderr.on("data", (chunk) => (output += chunk));
    await waitForListening(started, () => output.slice(before), serverless ? "Ready in" : "htmldrop: listening");
    return started;
  };
  const halt = async () => {
    // A process killed by a signal has no exit code, only a signal code; either way it has exited.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  let child = await launch();
  // The database as the token minter knows it: another after a restart, which may restore or rewrite it.
  let starts = 1;
  const minterDatabase = () => `${dataDir}#${database?.schema ?? "sqlite"}#${starts}`;
  let minted = false;
  const releaseMinter = async () => {
    if (minted) await releaseMinterDatabase(minterDatabase());
  };
  const edge: VercelEdge | null = asVercel ? await startVercelEdge(port, servedPort) : null;
  const runCommand = (script: string, args: string[] = []) => promisify(execFile)(TSX, [`scripts/${script}.ts`, ...args], { cwd: options.cwd ?? ROOT, env: childEnv });

  return {
    baseUrl,
    env,
    signsInThrough: identityProvider ? "identity-provider" : "local",
    logs: () => output,
    closeOutput() {
      child.stdout?.destroy();
      child.stderr?.destroy();
      return child.pid!;
    },
    async sql(query) {
      if (!database) {
        const sqlite = new Database(join(dataDir, "htmldrop.db"));
        try {
          const statement = sqlite.prepare(query);
          if (!statement.reader) {
            statement.run();
            return [];
          }
          return statement.all() as never[];
        } finally {
          sqlite.close();
        }
      }
      const client = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${database.schema}` });
      await client.connect();
      try {
        return (await client.query(query)).rows;
      } finally {
        await client.end();
      }
    },
    command: runCommand,
    async createToken(login, label) {
      minted = true;
      return mintToken(minterDatabase(), childEnv, login, label);
    },
    async api(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers["content-type"] ??= "application/json";
      }
      const method = init.method ?? "GET";
      const send = () => fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
      // A kept-alive connection the server has just closed (after refusing an oversized upload unread)
      // resets the next request sent on it; like any HTTP client, retry that once if it is idempotent
      // (not PUT: here it mints a version).
      const response = await send().catch((error: unknown) => {
        const reset = (error as { cause?: { code?: string } }).cause?.code === "ECONNRESET";
        if (reset && ["GET", "HEAD", "DELETE", "OPTIONS"].includes(method)) return send();
        throw error;
      });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed as any, text };
    },
    async restart(overrides = {}, whileStopped) {
      await releaseMinter();
      starts += 1;
      await halt();
      await whileStopped?.();
      Object.assign(env, overrides);
      childEnv = { ...childEnv, ...overrides };
      child = await launch();
    },
    async stop() {
      await releaseMinter();
      await halt();
      for (const bridge of bridges) bridge.close();
      await edge?.close();
      await upstash?.stop();
      await identityProvider?.close();
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
