// `npm start`: validates the configuration, migrates the database, builds once if needed, then
// serves the Next.js app from a plain node:http server (Next's documented custom-server mode).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { join } from "node:path";
import next from "next";
import { authBodyRefusal } from "@/lib/api/body";
import { actionRefusal, refuseUndecodableAction } from "@/lib/api/server-actions";
import { toApiError } from "@/lib/api/responses";
import { answerClientError, answerConnect, answerExpectation, answerUnroutable, serializeAnswer, toOriginForm, type Answer } from "@/lib/api/unroutable";
import { ConfigError, getConfig } from "@/lib/config";
import { disconnectDb } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { CLIENT_ADDRESS_HEADER, describeClient, LOCAL_CLIENT_HEADER } from "@/lib/ratelimit/client-key";
import { isRawPath, serveRaw, type RawResponse } from "@/lib/serving/raw";
import { countView, isViewBeaconPath } from "@/lib/serving/view-beacon";
import { pageCacheRoute } from "@/lib/serving/cached-pages";
import { enablePageCache } from "@/lib/serving/page-cache";
import { flushViewCounts } from "@/lib/serving/views";

type NextHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

// Cut-offs for slow clients (README, "Slow clients"). All headers within 10 s: a legitimate client
// sends them at once. The whole request within 120 s: a 2 MB upload needs 140 kbit/s. Node.js checks
// every second (its default, 30 s, would let each cut-off run late by as much).
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 120_000;
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

function writeServed(response: ServerResponse, served: RawResponse): void {
  response.writeHead(served.status, served.headers);
  response.cork();
  for (const part of served.body ?? []) response.write(part);
  response.end();
  response.uncork();
}

/** Writes an answer to a socket that no response object owns, then closes it. */
function answerSocket(socket: Duplex, answer: Answer): void {
  socket.end(serializeAnswer(answer), () => socket.destroy());
}

async function main(): Promise<void> {
  const config = getConfig();
  const applied = await migrate(config.database);
  if (applied.length > 0) console.log(`htmldrop: applied migrations ${applied.join(", ")}`);

  if (!existsSync(join(process.cwd(), ".next", "BUILD_ID"))) {
    console.log("htmldrop: no build found, running `next build` once");
    const build = spawnSync(process.execPath, [join(process.cwd(), "node_modules", "next", "dist", "bin", "next"), "build"], { stdio: "inherit" });
    if (build.status !== 0) throw new Error("next build failed");
  }

  // Listen first: Next must be told the port really listened on (PORT=0 picks one), see below.
  // Requests that arrive before Next is ready wait for it.
  let resolveHandle: (handler: NextHandler) => void = () => {};
  const handleReady = new Promise<NextHandler>((resolve) => (resolveHandle = resolve));
  // The response a connection is busy with: a request Node.js cannot read is answered only when
  // nothing of an earlier response on that connection is still being written.
  const responses = new WeakMap<Duplex, ServerResponse>();
  const serverOptions = {
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    requireHostHeader: false,
  };
  const server = createServer(serverOptions, (request, response) => {
    responses.set(request.socket, response);
    toOriginForm(request);
    const unroutable = answerUnroutable({ method: request.method ?? "", url: request.url ?? "", httpVersion: request.httpVersion, headers: request.headers });
    if (unroutable) {
      response.writeHead(unroutable.status, unroutable.headers).end(unroutable.body);
      return;
    }
    const served = { method: request.method ?? "GET", url: request.url ?? "/", headers: request.headers };
    // The hot path: raw drops skip Next's pipeline; app/p/[slug]/raw/route.ts runs the same function on Vercel.
    if (isRawPath(request.url)) {
      void serveRaw(served).then((raw) => writeServed(response, raw));
      return;
    }
    // Public viewer pages and configuration-only pages, rendered by Next once and served from memory.
    const cachedPage = pageCacheRoute(served);
    if (cachedPage) {
      void cachedPage()
        .catch((error: unknown) => {
          console.error("htmldrop: page cache failed; Next answers instead", error);
          return null;
        })
        .then((page) => (page ? writeServed(response, page) : forwardToNext(request, response)));
      return;
    }
    if (isViewBeaconPath(request.url)) {
      void countView(served).then((answer) => writeServed(response, answer));
      return;
    }
    forwardToNext(request, response);
  });

  function forwardToNext(request: IncomingMessage, response: ServerResponse): void {
    const refusal = authBodyRefusal(request.url ?? "/", request.headers);
    if (refusal) {
      response.writeHead(refusal.status, { "content-type": "application/json; charset=utf-8", connection: "close" }).end(JSON.stringify(refusal.body));
      return;
    }
    const notAForm = actionRefusal(request.method ?? "", request.url ?? "/", request.headers);
    if (notAForm) {
      response.writeHead(notAForm.status, notAForm.headers).end(notAForm.body);
      return;
    }
    refuseUndecodableAction(request.method ?? "", request.url ?? "/", request.headers, response);
    // Upgrades are not served (see below); left in place, the header would be forwarded to the fetch
    // Next makes after an action redirects, which refuses a malformed one.
    delete request.headers.upgrade;
    // Set here, never taken from the client: per-client rate limits and the local sign-in trust them.
    // (The raw path above needs neither.)
    const client = describeClient(request.socket.remoteAddress, request.headers, config.trustProxy);
    request.headers[CLIENT_ADDRESS_HEADER] = client.address;
    request.headers[LOCAL_CLIENT_HEADER] = client.local ? "1" : "0";
    void handleReady.then((handle) =>
      handle(request, response).catch((error: unknown) => {
        const failure = toApiError(error);
        if (!response.headersSent) response.writeHead(failure.status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(failure.toBody()));
      }),
    );
  }
  server.keepAliveTimeout = 65_000;
  server.on("clientError", (error: Error, socket: Duplex) => {
    const answer = answerClientError(error);
    const busy = responses.get(socket);
    if (answer && socket.writable && !(busy?.headersSent && !busy.writableEnded)) answerSocket(socket, answer);
    else socket.destroy();
  });
  server.on("connect", (_request: IncomingMessage, socket: Duplex) => answerSocket(socket, answerConnect()));
  server.on("checkExpectation", (_request: IncomingMessage, response: ServerResponse) => {
    const answer = answerExpectation();
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(config.port, resolve));
  const { port } = server.address() as AddressInfo;

  // After a JavaScript form's server action redirects, Next fetches the target page from its own
  // origin, forwarding the request's headers (the session cookie included). Without hostname and port
  // it assumes localhost:3000, which may be another program; and it takes the scheme from
  // X-Forwarded-Proto. The server listens on every address, so loopback on the real port is always
  // this very process; `next start` pins the origin the same way, through __NEXT_PRIVATE_ORIGIN.
  process.env.__NEXT_PRIVATE_ORIGIN = `http://127.0.0.1:${port}`;
  // Next's WebSocket handler (development reloads, rewrites to other sites) is of no use here; on this
  // server it would swallow every request with an Upgrade header (curl --http2 sends one) unanswered.
  const app = next({ dev: false, dir: process.cwd(), hostname: "127.0.0.1", port, httpServer: createServer() });
  await app.prepare();
  resolveHandle(app.getRequestHandler());
  enablePageCache(process.env.__NEXT_PRIVATE_ORIGIN);
  const storage = config.database.provider === "sqlite" ? `SQLite at ${config.database.file}` : "PostgreSQL";
  console.log(`htmldrop: listening on port ${port}, public URL ${config.publicUrl}, ${storage}`);
  console.log(`htmldrop: slow clients are cut off after ${server.headersTimeout / 1000} s for headers, ${server.requestTimeout / 1000} s for a whole request`);

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
