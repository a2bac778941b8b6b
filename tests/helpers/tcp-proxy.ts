// A TCP relay a test can cut: closing it refuses new connections and drops every open one, as a
// database that goes down would; opening it again on the same port brings the database back. It may
// also rewrite what the target sends, as a pooler in between would.
import { createServer, connect, type Server, type Socket } from "node:net";
import type { Transform } from "node:stream";

export type TcpProxy = { port: number; close(): Promise<void>; open(): Promise<void> };

/** `fromTarget` makes, for each connection, the stream the target's bytes pass through on their way back. */
export async function startTcpProxy(target: { host: string; port: number }, fromTarget?: () => Transform): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const listener = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("error", () => socket.destroy());
          socket.on("close", () => {
            sockets.delete(socket);
            (socket === client ? upstream : client).destroy();
          });
        }
        client.pipe(upstream);
        (fromTarget ? upstream.pipe(fromTarget()) : upstream).pipe(client);
      });
      listener.once("error", reject);
      listener.listen(port, "127.0.0.1", () => {
        const address = listener.address();
        port = typeof address === "object" && address ? address.port : port;
        server = listener;
        resolve();
      });
    });

  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });

  await open();
  return { port, open, close };
}
