// `npm start`: validates the configuration, migrates the database, builds once if needed, then
// serves the Next.js app from a plain node:http server (Next's documented custom-server mode).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import next from "next";
import { authBodyRefusal } from "@/lib/api/body";
import { ConfigError, getConfig } from "@/lib/config";
import { disconnectDb } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { CLIENT_ADDRESS_HEADER, describeClient, LOCAL_CLIENT_HEADER } from "@/lib/ratelimit/client-key";
import { isRawPath, serveRaw } from "@/lib/serving/raw";
import { flushViewCounts } from "@/lib/serving/views";

async function main(): Promise<void> {
  const config = getConfig();
  const applied = await migrate(config.database);
  if (applied.length > 0) console.log(`htmldrop: applied migrations ${applied.join(", ")}`);

  if (!existsSync(join(process.cwd(), ".next", "BUILD_ID"))) {
    console.log("htmldrop: no build found, running `next build` once");
    const build = spawnSync(process.execPath, [join(process.cwd(), "node_modules", "next", "dist", "bin", "next"), "build"], { stdio: "inherit" });
    if (build.status !== 0) throw new Error("next build failed");
  }

  const app = next({ dev: false, dir: process.cwd() });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((request, response) => {
    // The hot path: raw drops skip Next's pipeline; app/p/[slug]/raw/route.ts runs the same function on Vercel.
    if (isRawPath(request.url)) {
      void serveRaw({ method: request.method ?? "GET", url: request.url!, headers: request.headers }).then((raw) => {
        response.writeHead(raw.status, raw.headers).end(raw.body ?? undefined);
      });
      return;
    }
    const refusal = authBodyRefusal(request.url ?? "/", request.headers);
    if (refusal) {
      response.writeHead(refusal.status, { "content-type": "application/json; charset=utf-8", connection: "close" }).end(JSON.stringify(refusal.body));
      return;
    }
    // Set here, never taken from the client: per-client rate limits and the local sign-in trust them.
    // (The raw path above needs neither.)
    const client = describeClient(request.socket.remoteAddress, request.headers, config.trustProxy);
    request.headers[CLIENT_ADDRESS_HEADER] = client.address;
    request.headers[LOCAL_CLIENT_HEADER] = client.local ? "1" : "0";
    handle(request, response).catch((error: unknown) => {
      console.error("htmldrop: request failed", error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(config.port, () => {
    const storage = config.database.provider === "sqlite" ? `SQLite at ${config.database.file}` : "PostgreSQL";
    console.log(`htmldrop: listening on port ${config.port}, public URL ${config.publicUrl}, ${storage}`);
  });

  const shutdown = () => {
    server.close(() => void flushViewCounts().finally(() => void disconnectDb().finally(() => process.exit(0))));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
