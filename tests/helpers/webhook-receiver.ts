// A webhook receiver on loopback that verifies each delivery's signature with the Standard Webhooks
// library, as a real receiver would, and answers as the test says: accept, fail, redirect or hang.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Webhook } from "standardwebhooks";

export type Received = { id: string; path: string; type: string; body: any; verified: boolean; headers: Record<string, string> };

/** What to answer a request with: a status (and headers), or "hang" to hold it until the socket closes. */
export type Answer = { status: number; headers?: Record<string, string> } | "hang";

export type Receiver = {
  url(path?: string): string;
  port: number;
  received: Received[];
  /** Answers each request at `path` (default /hook) as `answer` decides; 200 when it returns undefined. */
  answer(path: string, decide: (request: Received, nth: number) => Answer | undefined): void;
  /** Sets the secret signatures are verified with (the one POST /api/webhooks showed). */
  trust(path: string, secret: string): void;
  waitFor(predicate: (received: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => resolve(Buffer.concat(chunks).toString("utf8"))).on("error", reject);
  });
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const answers = new Map<string, (request: Received, nth: number) => Answer | undefined>();
  const counts = new Map<string, number>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const text = await readBody(request);
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    let verified = false;
    let body: any = null;
    try {
      body = new Webhook(secrets.get(path) ?? "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").verify(text, headers);
      verified = true;
    } catch {
      body = text ? JSON.parse(text) : null;
    }
    const entry: Received = { id: headers["webhook-id"] ?? "", path, type: body?.type, body, verified, headers };
    received.push(entry);
    const nth = (counts.get(path) ?? 0) + 1;
    counts.set(path, nth);
    const answer = answers.get(path)?.(entry, nth) ?? { status: 200 };
    if (answer === "hang") return;
    response.writeHead(answer.status, answer.headers).end("ok");
  };
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    received,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    answer: (path, decide) => void answers.set(path, decide),
    trust: (path, secret) => void secrets.set(path, secret),
    async waitFor(predicate, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: waited ${timeoutMs} ms for ${what}; got ${JSON.stringify(received.map((r) => [r.path, r.type, r.id]))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
