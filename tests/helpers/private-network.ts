// Runs inside a network namespace of its own (`unshare -n`, see startApp's privateNetwork): brings up
// loopback, listens as a trap on addresses the server must never call, bridges the server's port and
// the outside services it needs through Unix sockets in HTMLDROP_NETNS_DIR, then runs `npm start`'s script.
import { execFileSync, spawn } from "node:child_process";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";

const dir = process.env.HTMLDROP_NETNS_DIR!;
const appPort = Number(process.env.PORT);
const outward = (process.env.HTMLDROP_NETNS_OUTWARD ?? "").split(",").filter(Boolean).map(Number);
const traps = (process.env.HTMLDROP_NETNS_TRAPS ?? "").split(",").filter(Boolean).map(Number);

function splice(a: Socket, b: Socket): void {
  a.pipe(b).pipe(a);
  a.on("error", () => b.destroy());
  b.on("error", () => a.destroy());
}

function listen(server: ReturnType<typeof createServer>, ...args: [string] | [number, string]): Promise<void> {
  return new Promise((resolve, reject) => server.once("error", reject).listen(...(args as [number, string]), () => resolve()));
}

execFileSync("ip", ["link", "set", "lo", "up"]);

// A trap reports every connection (its request line and the names of the cookies it carried), then hangs up.
function describeArrival(bytes: Buffer): string {
  const head = bytes.toString("latin1").split("\r\n\r\n")[0]!;
  if (!/^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/.test(head)) return `${bytes.length} bytes that are not HTTP (a TLS handshake?)`;
  const cookies = /^cookie: (.*)$/im.exec(head)?.[1]?.split(";").map((pair) => pair.split("=")[0]!.trim());
  return `${head.split("\r\n")[0]} with cookies: ${cookies?.join(", ") ?? "none"}`;
}

for (const port of traps) {
  for (const host of ["127.0.0.1", "::1"]) {
    const trap = createServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.on("error", () => {});
      setTimeout(() => {
        console.log(`htmldrop-test: trapped a connection to ${host}:${port}: ${describeArrival(Buffer.concat(chunks))}`);
        socket.destroy();
      }, 200);
    });
    await listen(trap, port, host);
  }
}
console.log(`htmldrop-test: traps listening on port ${traps.join(", ")} of 127.0.0.1 and ::1`);

// The server's port, reached from outside through a Unix socket.
await listen(createServer((socket) => splice(socket, connect(appPort, "127.0.0.1"))), join(dir, "inward.sock"));
// Outside services (PostgreSQL, Redis) at their usual loopback ports, reached through Unix sockets.
for (const port of outward) {
  await listen(createServer((socket) => splice(socket, connect(join(dir, `outward-${port}.sock`)))), port, "127.0.0.1");
}

const [node, ...startArguments] = JSON.parse(process.env.HTMLDROP_NETNS_START!) as string[];
const server = spawn(node!, startArguments, { stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 1));
