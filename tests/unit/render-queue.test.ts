import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, request as httpRequest, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RenderQueue, isRender } from "@/lib/serving/render-queue";

type Render = { path: string; response: ServerResponse; finish: (body?: string) => void; startedAt: number };

/** A real server whose every request is a render through `queue`, finished only when the test says so. */
async function renderingServer(queue: RenderQueue) {
  const started: Render[] = [];
  const server = createServer((request, response) => {
    queue.admit(response, () => {
      return new Promise<void>((resolve) => {
        started.push({ path: request.url ?? "", response, finish: (body = "done") => response.end(body, resolve), startedAt: performance.now() });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const port = (server.address() as AddressInfo).port;
  /** A GET whose answer's body resolves `body`; `abort()` closes the connection. */
  const get = (path: string) => {
    const sent = httpRequest({ port, path, agent: false });
    const body = new Promise<string>((resolve, reject) => {
      sent.on("response", (answer) => {
        let text = "";
        answer.setEncoding("utf8");
        answer.on("data", (chunk: string) => (text += chunk)).on("end", () => resolve(text));
      });
      sent.on("error", reject);
    });
    sent.end();
    const abort = () => {
      body.catch(() => undefined);
      sent.destroy();
    };
    return { body, abort };
  };
  return { started, get };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Waits until `condition` holds, checking at each turn of the event loop. */
async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("RenderQueue", () => {
  it("runs at most its slots at once, and the rest in the order they came", async () => {
    const queue = new RenderQueue(2, 60_000);
    const { started, get } = await renderingServer(queue);
    // Each request is sent once the one before has reached the server: on connections of their own,
    // requests sent together may arrive in any order (seen on Node.js 24).
    const answers: Promise<string>[] = [];
    for (const [path, arrived] of [
      ["/a", () => started.length === 1],
      ["/b", () => started.length === 2],
      ["/c", () => queue.load.waiting === 1],
      ["/d", () => queue.load.waiting === 2],
    ] as const) {
      answers.push(get(path).body);
      await until(arrived, `${path} to arrive`);
    }
    // Every request has reached the server; only the slots' worth render.
    expect(started.map((render) => render.path)).toEqual(["/a", "/b"]);
    started[1]!.finish();
    await until(() => started.length === 3, "a third render");
    expect(started[2]!.path).toBe("/c");
    expect(queue.load).toEqual({ running: 2, waiting: 1 });
    started[0]!.finish();
    await until(() => started.length === 4, "the fourth render");
    expect(started[3]!.path).toBe("/d");
    started[2]!.finish();
    started[3]!.finish();
    expect(await Promise.all(answers)).toEqual(["done", "done", "done", "done"]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it("runs a waiting render in its own request's async context, not in that of the render before it", async () => {
    const queue = new RenderQueue(1, 60_000);
    const requestOf = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    let releaseFirst = () => {};
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const server = createServer((request, response) => {
      requestOf.run(request.url ?? "", () => {
        queue.admit(response, async () => {
          seen.push(requestOf.getStore());
          if (seen.length === 1) await firstHeld;
          response.end("done");
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const { port } = server.address() as AddressInfo;
    const answers: Promise<string>[] = [];
    for (const [path, arrived] of [
      ["/a", () => seen.length === 1],
      ["/b", () => queue.load.waiting === 1],
      ["/c", () => queue.load.waiting === 2],
    ] as const) {
      answers.push(fetch(`http://127.0.0.1:${port}${path}`).then((answer) => answer.text()));
      await until(arrived, `${path} to arrive`);
    }
    releaseFirst();
    expect(await Promise.all(answers)).toEqual(["done", "done", "done"]);
    expect(seen).toEqual(["/a", "/b", "/c"]);
  });

  it("never renders for a client that left while it waited", async () => {
    const queue = new RenderQueue(1, 60_000);
    const { started, get } = await renderingServer(queue);
    const first = get("/first");
    await until(() => started.length === 1, "the first render");
    const gone = get("/gone");
    await until(() => queue.load.waiting === 1, "one waiting");
    gone.abort();
    await until(() => queue.load.waiting === 0, "the waiting request dropped");
    const last = get("/last");
    await until(() => queue.load.waiting === 1, "the last waiting");
    started[0]!.finish();
    await until(() => started.length === 2, "the next render");
    expect(started.map((render) => render.path)).toEqual(["/first", "/last"]);
    started[1]!.finish();
    expect([await first.body, await last.body]).toEqual(["done", "done"]);
  });

  it("frees a slot when its client closes the connection, though the render never settles", async () => {
    const queue = new RenderQueue(1, 60_000);
    const { started, get } = await renderingServer(queue);
    const abandoned = get("/abandoned");
    await until(() => started.length === 1, "the first render");
    const next = get("/next");
    await until(() => queue.load.waiting === 1, "one waiting");
    abandoned.abort();
    await until(() => started.length === 2, "the next render");
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
    started[1]!.finish();
    expect(await next.body).toBe("done");
  });

  it("frees a slot after the hold limit, so a stalled render cannot keep it", async () => {
    const holdLimitMs = 300;
    const queue = new RenderQueue(1, holdLimitMs);
    const { started, get } = await renderingServer(queue);
    const stalled = get("/stalled");
    await until(() => started.length === 1, "the stalled render");
    const next = get("/next");
    await until(() => started.length === 2, "the next render", 10_000);
    // Timed between the two renders' own starts: a poll of `until` on a busy machine comes late. Node's
    // timers count whole milliseconds, so one may fire up to a millisecond before its delay has passed.
    expect(started[1]!.startedAt - started[0]!.startedAt).toBeGreaterThanOrEqual(holdLimitMs - 1);
    expect(started[1]!.path).toBe("/next");
    started[1]!.finish();
    expect(await next.body).toBe("done");
    // The stalled render still answers when it ends, and releasing its slot again frees nothing twice.
    started[0]!.finish();
    expect(await stalled.body).toBe("done");
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });
});

describe("isRender", () => {
  it("counts the pages and route handlers Next answers to GET and HEAD, not its static files or bodies", () => {
    expect(isRender("GET", "/dashboard")).toBe(true);
    expect(isRender("HEAD", "/p/abc")).toBe(true);
    expect(isRender("GET", "/_next/static/chunks/main.js")).toBe(false);
    expect(isRender("POST", "/dashboard")).toBe(false);
  });
});
