// A stand-in for one CDN location in front of the app, for `npm run bench:live`: a shared cache that
// honours the origin's Cache-Control as CDNs do (s-maxage, else max-age; stale-while-revalidate; never
// private or no-store answers), keyed by URL alone, that sends one request at a time per URL to the
// origin (request collapsing), revalidates with the stored ETag, and answers readers' If-None-Match with
// 304 itself. It counts what reaches the origin.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

type Entry = { status: number; headers: Record<string, string>; body: Buffer; etag: string | null; storedAt: number; freshMs: number; staleMs: number };

export type SharedCache = { port: number; originRequests(): number; close(): Promise<void> };

/** The shared lifetimes an answer allows, or null when no shared cache may keep it. */
function sharedLifetimes(cacheControl: string | null): { freshMs: number; staleMs: number } | null {
  if (!cacheControl) return null;
  const directives = new Map(
    cacheControl.split(",").map((part) => {
      const [name = "", value = ""] = part.trim().toLowerCase().split("=");
      return [name, value] as const;
    }),
  );
  if (directives.has("private") || directives.has("no-store")) return null;
  const fresh = directives.get("s-maxage") ?? directives.get("max-age");
  if (fresh === undefined) return null;
  return { freshMs: Number(fresh) * 1000, staleMs: Number(directives.get("stale-while-revalidate") ?? 0) * 1000 };
}

export async function startSharedCache(origin: string): Promise<SharedCache> {
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry | Response>>();
  let originRequests = 0;

  /** One origin request per URL at a time; a stored ETag makes it conditional. */
  function fetchOrigin(url: string): Promise<Entry | Response> {
    let pending = inFlight.get(url);
    if (pending) return pending;
    const stored = entries.get(url);
    originRequests++;
    pending = (async () => {
      // No cookie: the answer is kept for everyone, so it is asked for as anyone.
      const headers: Record<string, string> = { "accept-encoding": "identity" };
      if (stored?.etag) headers["if-none-match"] = stored.etag;
      const response = await fetch(`${origin}${url}`, { headers, redirect: "manual" });
      const lifetimes = sharedLifetimes(response.headers.get("cache-control"));
      if (response.status === 304 && stored && lifetimes) {
        const refreshed = { ...stored, storedAt: performance.now(), ...lifetimes };
        entries.set(url, refreshed);
        return refreshed;
      }
      const body = Buffer.from(await response.arrayBuffer());
      if (!lifetimes || response.status !== 200) {
        entries.delete(url);
        return new Response(body, { status: response.status, headers: response.headers });
      }
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "connection" && name !== "keep-alive") responseHeaders[name] = value;
      });
      const entry: Entry = { status: 200, headers: responseHeaders, body, etag: response.headers.get("etag"), storedAt: performance.now(), ...lifetimes };
      entries.set(url, entry);
      return entry;
    })().finally(() => inFlight.delete(url));
    inFlight.set(url, pending);
    return pending;
  }

  function answer(request: IncomingMessage, response: ServerResponse, found: Entry | Response): void {
    if (found instanceof Response) {
      void found.arrayBuffer().then((body) => response.writeHead(found.status, Object.fromEntries(found.headers)).end(Buffer.from(body)));
      return;
    }
    if (found.etag && request.headers["if-none-match"] === found.etag) {
      response.writeHead(304, { etag: found.etag, "cache-control": found.headers["cache-control"] ?? "" }).end();
      return;
    }
    response.writeHead(found.status, { ...found.headers, "content-length": String(found.body.length) }).end(found.body);
  }

  const server: Server = createServer((request, response) => {
    const url = request.url ?? "/";
    const stored = request.method === "GET" ? entries.get(url) : undefined;
    const age = stored ? performance.now() - stored.storedAt : Infinity;
    if (stored && age < stored.freshMs) return answer(request, response, stored);
    if (stored && age < stored.freshMs + stored.staleMs) {
      // Stale while revalidating: this reader gets the stored answer, the origin is asked in the background.
      void fetchOrigin(url).catch(() => undefined);
      return answer(request, response, stored);
    }
    fetchOrigin(url).then(
      (found) => answer(request, response, found),
      () => response.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    originRequests: () => originRequests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
