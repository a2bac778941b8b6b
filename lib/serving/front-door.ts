// What `npm start` does with each request before Next's router, and around the process's start and
// stop. server.ts imports nothing of lib/: it loads this module through instrumentation.ts, from Next's
// own bundle, so one process holds one copy of the code, of the Prisma client's engine and of every cache.
import type { IncomingMessage, ServerResponse } from "node:http";
import { authBodyRefusal } from "@/lib/api/body";
import { toApiError } from "@/lib/api/responses";
import { actionRefusal, refuseUndecodableAction } from "@/lib/api/server-actions";
import { answerClientError, answerConnect, answerExpectation, answerUnroutable, resolveDotSegments, serializeAnswer, toOriginForm, type Answer } from "@/lib/api/unroutable";
import { getConfig } from "@/lib/config";
import { disconnectDb } from "@/lib/db";
import { runInTurn } from "@/lib/db/reads";
import { startKeepingRows } from "@/lib/db/kept-rows";
import { migrate } from "@/lib/db/migrate";
import { startExpiryPurge } from "@/lib/drops/purge-expired";
import { startWebhookDelivery } from "@/lib/webhooks/worker";
import { startNotificationDelivery } from "@/lib/notifications/worker";
// Up a floor, deliberately: the front door counts every request into the metrics, which read its gauges.
import { recordRequest, routeLabel } from "@/lib/ops/metrics";
import { rateLimitBackend } from "@/lib/ratelimit";
import { CLIENT_ADDRESS_HEADER, describeClient, LOCAL_CLIENT_HEADER } from "@/lib/ratelimit/client-key";
import { appSecurityHeaders, isDropsOnlyHost } from "@/lib/security/headers";
import { servePreviewImage } from "@/lib/previews/og-image";
import { parsePublicPath } from "@/lib/drops/public-urls";
import { pageCacheRoute } from "./cached-pages";
import { answerRead, directRoute, type DirectRoute, toWebRequest, webHeaders, writeWebResponse } from "./direct-routes";
import { serveLiveVersion } from "./live-version";
import { enablePageCache } from "./page-cache";
import { andThen, type MaybePromise, recovering } from "./maybe-async";
import { isRender, renderQueue } from "./render-queue";
import { serveRaw, type RawResponse } from "./raw";
import { countView, isViewBeaconPath } from "./view-beacon";
import { flushViewCounts } from "./views";

export type NextHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

export type FrontDoor = {
  /** Validates the configuration (a ConfigError names every problem) and migrates the database; `address` null: listen on every one. */
  start(): Promise<{ port: number; address: string | null; description: string }>;
  /** Once the server listens: Next's handler, and the loopback origin the page cache renders from. */
  open(next: NextHandler, origin: string): void;
  serve(request: IncomingMessage, response: ServerResponse): void;
  /** The bytes to write to a socket Node.js could not parse a request from, or null to just close it. */
  clientErrorAnswer(error: Error): string | null;
  connectAnswer(): string;
  expectationAnswer(): Answer;
  /** Writes pending view counts, stops keeping rows (unregistering, so writes stop waiting for it) and closes the database. */
  stop(): Promise<void>;
};

function writeServed(response: ServerResponse, served: RawResponse): void {
  response.writeHead(served.status, served.headers).end(served.body ?? undefined);
}

/** Writes what `serve` answers, with the rest of its turn (runInTurn); each of the servers answers its own failures. */
function serveInTurn(response: ServerResponse, serve: () => MaybePromise<RawResponse>): void {
  runInTurn(() => void andThen(serve(), (answer) => writeServed(response, answer)));
}

export function createFrontDoor(): FrontDoor {
  let handleWithNext: NextHandler | null = null;
  let loopbackOrigin = "";
  let stopExpiryPurge = () => {};
  let stopWebhookDelivery = () => {};
  let stopNotificationDelivery = () => {};
  let stopKeepingRows = async () => {};

  /** Set here, never taken from the client: per-client rate limits and the local sign-in trust them. */
  function recordClient(request: IncomingMessage): void {
    const client = describeClient(request.socket.remoteAddress, request.headers, getConfig().trustProxy);
    request.headers[CLIENT_ADDRESS_HEADER] = client.address;
    request.headers[LOCAL_CLIENT_HEADER] = client.local ? "1" : "0";
  }

  function answerFailure(response: ServerResponse, error: unknown): void {
    const failure = toApiError(error);
    if (!response.headersSent) response.writeHead(failure.status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(failure.toBody()));
  }

  /** Async: whatever a route throws, at once or later, is a rejection its caller answers, never a throw that would end its turn. */
  async function answerDirect(direct: DirectRoute, request: IncomingMessage, response: ServerResponse): Promise<void> {
    if ("read" in direct) return answerRead(response, direct.read(request.headers.authorization ?? null));
    if ("node" in direct) return direct.node(request, response, loopbackOrigin);
    return writeWebResponse(response, await direct.web(toWebRequest(request, loopbackOrigin)));
  }

  function forwardToNext(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? "/";
    const method = request.method ?? "";
    const refusal = authBodyRefusal(url, request.headers);
    if (refusal) {
      response.writeHead(refusal.status, { "content-type": "application/json; charset=utf-8", connection: "close" }).end(JSON.stringify(refusal.body));
      return;
    }
    const notAForm = actionRefusal(method, url, request.headers);
    if (notAForm) {
      response.writeHead(notAForm.status, notAForm.headers).end(notAForm.body);
      return;
    }
    refuseUndecodableAction(method, url, request.headers, response);
    // Upgrades are not served (server.ts); left in place, the header would be forwarded to the fetch
    // Next makes after an action redirects, which refuses a malformed one.
    delete request.headers.upgrade;
    recordClient(request);
    const render = () => handleWithNext!(request, response).catch((error: unknown) => answerFailure(response, error));
    if (isRender(method, url)) renderQueue().admit(response, render);
    else void render();
  }

  return {
    async start() {
      const config = getConfig();
      const applied = await migrate(config.database);
      if (applied.length > 0) console.log(`htmldrop: applied migrations ${applied.join(", ")}`);
      stopExpiryPurge = startExpiryPurge();
      stopWebhookDelivery = startWebhookDelivery();
      stopNotificationDelivery = startNotificationDelivery();
      stopKeepingRows = startKeepingRows();
      // Connected before the first request: limits fail closed, so a burst that found the connection to
      // Redis still being made would be refused. A Redis that is down is logged by its client; requests
      // are then refused until it answers, as at any other time.
      await rateLimitBackend()
        .ping?.()
        .catch(() => undefined);
      const storage = config.database.provider === "sqlite" ? `SQLite at ${config.database.file}` : "PostgreSQL";
      return { port: config.port, address: config.listenAddress, description: `public URL ${config.publicUrl}, ${storage}` };
    },

    open(next, origin) {
      handleWithNext = next;
      loopbackOrigin = origin;
      enablePageCache(origin);
    },

    serve(request, response) {
      const started = performance.now();
      response.on("finish", () => recordRequest(routeLabel(request.method ?? "", request.url ?? "/"), response.statusCode, (performance.now() - started) / 1000));
      toOriginForm(request);
      resolveDotSegments(request);
      const unroutable = answerUnroutable({ method: request.method ?? "", url: request.url ?? "", httpVersion: request.httpVersion, headers: request.headers });
      if (unroutable) {
        response.writeHead(unroutable.status, unroutable.headers).end(unroutable.body);
        return;
      }
      const served = { method: request.method ?? "GET", url: request.url ?? "/", headers: request.headers };
      const publicPath = parsePublicPath(served.url);
      // The hot path: raw drops skip Next's pipeline; app/p/[slug]/raw/route.ts runs the same function on Vercel.
      if (publicPath?.route === "raw") {
        serveInTurn(response, () => serveRaw(served, publicPath));
        return;
      }
      // On CONTENT_ORIGIN's own host, proxy.ts decides what is served (no app page is), so nothing else
      // may answer before Next: a page cached from the app's host would otherwise be served there.
      if (isDropsOnlyHost(request.headers.host ?? null)) {
        forwardToNext(request, response);
        return;
      }
      // Preview cards, which an unfurler asks for right after a link is shared: through Next, the first one
      // also waited for its route's code to load, and every one for Next's pipeline. proxy.ts gives the
      // route handler's answer (app/p/[slug]/og.png/route.ts, on Vercel) the app's security headers; so does this.
      if (publicPath?.route === "og" && (served.method === "GET" || served.method === "HEAD")) {
        recordClient(request);
        const card = { method: served.method, url: new URL(served.url, loopbackOrigin), headers: webHeaders(request) };
        serveInTurn(response, () => servePreviewImage(card).then((answer) => ({ ...answer, headers: { ...answer.headers, ...appSecurityHeaders() } })));
        return;
      }
      // What open viewers poll: one row read, never Next's pipeline (app/p/[slug]/live.json/route.ts on Vercel).
      if (publicPath?.route === "live") {
        serveInTurn(response, () => serveLiveVersion(served, publicPath));
        return;
      }
      // Public viewer pages and configuration-only pages, rendered by Next once and served from memory.
      const cachedPage = pageCacheRoute(served, publicPath);
      if (cachedPage) {
        runInTurn(() => {
          const page = recovering(cachedPage, (error) => {
            console.error("htmldrop: page cache failed; Next answers instead", error);
            return null;
          });
          void andThen(page, (found) => (found ? writeServed(response, found) : forwardToNext(request, response)));
        });
        return;
      }
      if (isViewBeaconPath(request.url)) {
        // The beacon counts each client once per window: by the address recorded here, never one it wrote.
        recordClient(request);
        serveInTurn(response, () => countView(served));
        return;
      }
      const direct = directRoute(request.method, request.url);
      if (direct) {
        recordClient(request);
        runInTurn(() => void answerDirect(direct, request, response).catch((error: unknown) => answerFailure(response, error)));
        return;
      }
      forwardToNext(request, response);
    },

    clientErrorAnswer(error) {
      const answer = answerClientError(error);
      return answer ? serializeAnswer(answer) : null;
    },
    connectAnswer: () => serializeAnswer(answerConnect()),
    expectationAnswer: answerExpectation,

    async stop() {
      stopExpiryPurge();
      stopWebhookDelivery();
      stopNotificationDelivery();
      await Promise.allSettled([stopKeepingRows(), flushViewCounts()]).finally(() => disconnectDb());
    },
  };
}
