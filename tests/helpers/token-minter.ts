// The tests' fixture tokens: what `npm run admin -- token create --login <login>` does
// (createOperatorToken), in one long-lived process for a whole test run instead of a process per token
// or per server, each of which cost about a second of CPU, a few hundred times a run. It serves every
// test server's database in turn: each request names a server's database as it is now (`database`, new
// after a restart, which may restore or rewrite it) and carries that server's environment, and the
// minter reconnects when the database changes. Requests are answered one at a time.
//
// A loopback HTTP service: POST `{"database","env","login","label"}` answers `{"token"}` or `{"error"}`;
// POST `{"release": database}` closes that database's connection (its server stops). It prints its URL
// as its first line, and exits when its stdin closes (the process that started it is gone). The server
// has migrated the database before a test asks for a token; the admin command itself is tested through
// `npm run admin`.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import { createOperatorToken } from "@/lib/accounts/create-token";
import { reloadConfig } from "@/lib/config";
import { disconnectDb } from "@/lib/db";

type Request = { database: string; env: Record<string, string>; login: string; label?: string } | { release: string };

let connected: string | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** Points lib's configuration and database at another server's, as if this process had started with its environment. */
async function connectTo(database: string, env: Record<string, string>): Promise<void> {
  await disconnectDb();
  for (const name of Object.keys(process.env)) delete process.env[name];
  Object.assign(process.env, env);
  reloadConfig();
  connected = database;
}

async function answer(request: Request): Promise<Record<string, string>> {
  if ("release" in request) {
    if (request.release === connected) {
      await disconnectDb();
      connected = null;
    }
    return {};
  }
  if (request.database !== connected) await connectTo(request.database, request.env);
  const { token } = await createOperatorToken(request.login, { label: request.label ?? null });
  return { token };
}

const server = createServer(async (request, response) => {
  const body = JSON.parse(await text(request)) as Request;
  const answered = queue.then(() => answer(body)).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
  queue = answered;
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(await answered));
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
});
process.stdin.resume().once("end", () => {
  server.close();
  server.closeAllConnections();
  void disconnectDb();
});
