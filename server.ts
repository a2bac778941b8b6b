// `npm start` runs this file, compiled into the build (scripts/build-server.mjs): it migrates the
// database, then serves the Next.js app from a plain node:http server (Next's documented custom-server
// mode). It imports no module of lib/: everything it does with a request comes from Next's own bundle
// through the front door (lib/serving/front-door.ts, loaded by way of instrumentation.ts), so the
// process loads the code once.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import next from "next";
import type { FrontDoor } from "@/lib/serving/front-door";

// Cut-offs for slow clients (README, "Slow clients"). All headers within 10 s: a legitimate client
// sends them at once. The whole request within 120 s: a 2 MB upload needs 140 kbit/s. Node.js checks
// every second (its default, 30 s, would let each cut-off run late by as much).
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 120_000;
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
// Lingering close (nginx's lingering_time): after an answer given before the request's body was read to
// its end, the rest is read and thrown away for at most this long. Closing with bytes unread makes the
// kernel reset the connection, which destroys the answer on its way to a client that is still sending.
const LINGER_MS = 30_000;

/** Destroys the socket LINGER_MS from now unless it closes first; answers the way to call that off. */
function cutOffAfterLinger(socket: Duplex): () => void {
  const cutOff = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once("close", () => clearTimeout(cutOff));
  return () => clearTimeout(cutOff);
}

/**
 * Reads and discards what the client still sends, until it stops, then closes; never past LINGER_MS.
 * Node.js's parser stops reading it too: parsing the rest of a request it could not read would report
 * another client error, whose answer is to destroy the connection, resetting the one just written.
 */
function lingerThenClose(socket: Duplex): void {
  cutOffAfterLinger(socket);
  socket.once("end", () => socket.destroy());
  socket.removeAllListeners("data");
  socket.on("data", () => {});
  socket.resume();
}

/** Writes an answer to a socket that no response object owns, then closes it. */
function answerSocket(socket: Duplex, answer: string): void {
  socket.end(answer);
  lingerThenClose(socket);
}

/**
 * Throws away the unread rest of a request body once its answer is written. A kept-alive connection
 * then carries on with the next request; one that closes (the client or the answer asked to) lingers
 * instead of being destroyed as soon as the answer is written.
 */
function discardUnreadBody(request: IncomingMessage): void {
  const socket = request.socket;
  if (socket.destroyed) return;
  // Node.js, closing the connection, has ended it and destroys it once the answer is written (its
  // destroySoon listens for 'finish' with socket.destroy): an internal that large-bodies.test.ts
  // checks on every supported version, since without it the body is cut off again.
  const closing = socket.listeners("finish").includes(socket.destroy);
  if (closing) socket.removeListener("finish", socket.destroy);
  const callOff = cutOffAfterLinger(socket);
  request.once("end", () => {
    callOff();
    if (closing) socket.destroy();
  });
  // Whatever read the body (a web stream Next or a route made of it) is done with it.
  request.removeAllListeners("data");
  request.resume();
}

/** Whether a body follows the headers (RFC 9112 §6.3: only Transfer-Encoding or a Content-Length announces one). */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Drops the log lines that can no longer be written. When the reader of stdout or stderr goes away (a
 * log collector that exited), each line fails with EPIPE; unhandled, that error reaches Next's
 * uncaughtException handler, which logs it to the same closed stream, and so on: the process spun and
 * stopped answering.
 */
function dropUnwritableLogs(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
}

/**
 * Hands Next the configuration its build resolved (.next/required-server-files.json), as its own
 * standalone server does: otherwise it compiles next.config.ts again at every start, which loads its
 * native SWC compiler and kept about 40 MB of resident memory for the process's life (issue 35).
 */
function applyBuiltConfig(): void {
  const built = JSON.parse(readFileSync(join(process.cwd(), ".next", "required-server-files.json"), "utf8")) as { config: unknown };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built.config);
}

/** The front door, from Next's bundle: instrumentation.ts leaves its loader under this key while Next prepares. */
function loadFrontDoor(): Promise<FrontDoor> {
  const load = (globalThis as Record<symbol, (() => Promise<FrontDoor>) | undefined>)[Symbol.for("htmldrop.front-door")];
  if (!load) throw new Error("htmldrop: this build has no front door (instrumentation.ts); run `npm run build`");
  return load();
}

async function main(): Promise<void> {
  dropUnwritableLogs();
  // Next's port names the origin it builds request URLs from; the configuration checks PORT in
  // start() below, before anything listens. PORT=0 (any free port) is corrected by the origin below.
  const configuredPort = Number(process.env.PORT ?? 3000) || 3000;
  // Next's WebSocket handler (development reloads, rewrites to other sites) is of no use here; on this
  // server it would swallow every request with an Upgrade header (curl --http2 sends one) unanswered.
  applyBuiltConfig();
  const app = next({ dev: false, dir: process.cwd(), hostname: "127.0.0.1", port: configuredPort, httpServer: createServer() });
  await app.prepare();
  const door = await loadFrontDoor();
  const { port: listenPort, address: listenAddress, description } = await door.start();

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
    // Most requests have no body, and are complete once their headers are read: no listener for them.
    if (hasBody(request)) {
      response.once("finish", () => {
        if (!request.complete) discardUnreadBody(request);
      });
    }
    door.serve(request, response);
  });
  server.keepAliveTimeout = 65_000;
  server.on("clientError", (error: Error, socket: Duplex) => {
    const answer = door.clientErrorAnswer(error);
    const busy = responses.get(socket);
    if (answer && socket.writable && !(busy?.headersSent && !busy.writableEnded)) answerSocket(socket, answer);
    else socket.destroy();
  });
  server.on("connect", (_request: IncomingMessage, socket: Duplex) => answerSocket(socket, door.connectAnswer()));
  server.on("checkExpectation", (_request: IncomingMessage, response: ServerResponse) => {
    const answer = door.expectationAnswer();
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(listenPort, listenAddress ?? undefined, resolve));
  const { port } = server.address() as AddressInfo;

  // After a JavaScript form's server action redirects, Next fetches the target page from its own
  // origin, forwarding the request's headers (the session cookie included). It takes the scheme from
  // X-Forwarded-Proto and, without this, the host from the port it was given. On every address (the
  // default), loopback on the real port is always this very process; on one address (LISTEN_ADDRESS),
  // that address is. `next start` pins the origin the same way, through __NEXT_PRIVATE_ORIGIN.
  const selfHost = !listenAddress || listenAddress === "0.0.0.0" || listenAddress === "::" ? "127.0.0.1" : listenAddress.includes(":") ? `[${listenAddress}]` : listenAddress;
  process.env.__NEXT_PRIVATE_ORIGIN = `http://${selfHost}:${port}`;
  door.open(app.getRequestHandler(), process.env.__NEXT_PRIVATE_ORIGIN);
  console.log(`htmldrop: listening on ${listenAddress ? `${selfHost}:${port}` : `port ${port}`}, ${description}`);
  console.log(`htmldrop: slow clients are cut off after ${server.headersTimeout / 1000} s for headers, ${server.requestTimeout / 1000} s for a whole request`);

  const shutdown = () => {
    server.close(() => void door.stop().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  // A configuration error is the operator's to fix: its message lists every problem, without a stack.
  console.error(error instanceof Error && error.name === "ConfigError" ? error.message : error);
  process.exit(1);
});
