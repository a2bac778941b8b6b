// Upstash's REST protocol in front of the machine's Redis, so a test runs the very @upstash/redis
// client a Vercel deployment runs: a JSON array per command (POST /), arrays of them (POST /pipeline,
// /multi-exec), results base64-encoded when the client asks (Upstash-Encoding), a bearer token. Each
// bridge keeps its keys apart from every other's, as each Upstash database is its own keyspace, so
// apps running side by side never count each other's requests.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import IORedis from "ioredis";

type Command = (string | number)[];
type Reply = { result?: unknown; error?: string };

export type UpstashBridge = { url: string; token: string; commands: () => number; stop: () => Promise<void> };

function encode(value: unknown): unknown {
  if (typeof value === "string") return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map(encode);
  return value;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export async function startUpstashBridge(redisUrl = "redis://127.0.0.1:6379"): Promise<UpstashBridge> {
  const redis = new IORedis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const token = `bridge-${Math.random().toString(36).slice(2)}`;
  let commands = 0;

  const keyspace = `${token}:`;
  const translate = ([name, ...args]: Command): Command => {
    if (String(name).toUpperCase() === "EVAL") {
      // EVAL script numkeys keys… argv…: the keys move into this bridge's keyspace.
      const [script, numberOfKeys, ...rest] = args;
      const count = Number(numberOfKeys);
      return [name!, script!, numberOfKeys!, ...rest.slice(0, count).map((key) => keyspace + String(key)), ...rest.slice(count)];
    }
    // Every other command the app sends (GET, PING) has its key, if any, first.
    return args.length > 0 ? [name!, keyspace + String(args[0]), ...args.slice(1)] : [name!];
  };

  const run = async (sent: Command): Promise<Reply> => {
    commands++;
    const [name, ...args] = translate(sent);
    try {
      const result = await redis.call(String(name), ...args.map(String));
      return { result };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.headers.authorization !== `Bearer ${token}`) {
        response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "Unauthorized" }));
        return;
      }
      const base64 = request.headers["upstash-encoding"] === "base64";
      const shape = (reply: Reply): Reply => (base64 && reply.result !== undefined ? { result: encode(reply.result) } : reply);
      const body = await readBody(request);
      const path = new URL(request.url ?? "/", "http://bridge").pathname;
      if (path === "/pipeline" || path === "/multi-exec") {
        const replies: Reply[] = [];
        for (const command of body as Command[]) replies.push(shape(await run(command)));
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(replies));
        return;
      }
      const reply = shape(await run(body as Command));
      response.writeHead(reply.error ? 400 : 200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    })().catch((error: unknown) => {
      response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    commands: () => commands,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}

/** The sum of the rate-limit counters whose keys match `pattern` (after `htmldrop:rl:`) in the bridge with this token. */
export async function bridgeCounters(bridgeToken: string, pattern: string, redisUrl = "redis://127.0.0.1:6379"): Promise<number> {
  const redis = new IORedis(redisUrl);
  try {
    const keys = await redis.keys(`${bridgeToken}:htmldrop:rl:${pattern}`);
    const values = keys.length > 0 ? await redis.mget(...keys) : [];
    return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
  } finally {
    redis.disconnect();
  }
}
