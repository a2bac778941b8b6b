// What stands in front of a Vercel function, as far as the app can tell: a proxy that tells it who the
// client is in `x-real-ip` (and `x-forwarded-for`), overwriting whatever the client sent there, and
// passes everything else through, streamed both ways (MCP's event streams included).
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";

export type VercelEdge = { close(): Promise<void> };

/**
 * A test's stand-in for connecting from another address: the edge takes the peer's address from it
 * (and drops it) instead of from the loopback socket every test request comes from.
 */
export const PEER_ADDRESS_HEADER = "x-test-peer-address";

/** Headers the platform sets itself; a client's own values never reach the function. */
function platformHeaders(headers: IncomingHttpHeaders, socketAddress: string): IncomingHttpHeaders {
  const { [PEER_ADDRESS_HEADER]: peer, ...passed } = headers;
  const address = (typeof peer === "string" ? peer : socketAddress).replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  return {
    ...passed,
    "x-real-ip": address,
    "x-forwarded-for": address,
    "x-forwarded-proto": "http",
    "x-forwarded-host": headers.host ?? "",
    "x-vercel-id": `test::${Math.random().toString(36).slice(2, 10)}`,
  };
}

/** Listens on `port` (every address, as the app's public port) and relays to the function on `targetPort`. */
export async function startVercelEdge(port: number, targetPort: number): Promise<VercelEdge> {
  const server: Server = createServer((incoming, outgoing) => {
    const relayed = request(
      { host: "127.0.0.1", port: targetPort, method: incoming.method, path: incoming.url, headers: platformHeaders(incoming.headers, incoming.socket.remoteAddress ?? "") },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    relayed.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end("edge: the function did not answer");
    });
    incoming.pipe(relayed);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, resolve));
  return {
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
