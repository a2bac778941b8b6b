// Requests that Next.js or Node.js would answer with a 500, an empty body or nothing at all: every one
// gets the spec's Error shape with a JSON content type, over raw sockets where fetch cannot send them.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_ERROR_PAGE_MESSAGES } from "@/lib/auth/sign-in-messages";
import { startApp, type TestApp } from "../helpers/app";
import { serverActionIds } from "../helpers/session";

let app: TestApp;
let port: number;
let slug: string;
let token: string;

beforeAll(async () => {
  app = await startApp();
  port = Number(app.env.PORT);
  token = await app.createToken("raw-alice");
  slug = (await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p>x</p>" } })).body.slug;
});
afterAll(async () => app?.stop());

type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/** Sends bytes as they are; reads one answer (the server closes after each of these, or says its length). */
function raw(request: string, options: { trickle?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    const trickle = options.trickle ? setInterval(() => socket.write(options.trickle!), 1000) : undefined;
    let received = Buffer.alloc(0);
    const answer = (): RawAnswer | null => {
      const end = received.indexOf("\r\n\r\n");
      if (end === -1) return null;
      const [statusLine, ...lines] = received.subarray(0, end).toString("latin1").split("\r\n");
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      let body = received.subarray(end + 4);
      if (headers["content-length"] !== undefined && body.length < Number(headers["content-length"])) return null;
      if (headers["transfer-encoding"] === "chunked") {
        const chunks: Buffer[] = [];
        for (let at = 0; ; ) {
          const lineEnd = body.indexOf("\r\n", at);
          if (lineEnd === -1) return null;
          const size = parseInt(body.toString("latin1", at, lineEnd), 16);
          if (size === 0) break;
          if (body.length < lineEnd + 2 + size) return null;
          chunks.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
          at = lineEnd + 4 + size;
        }
        body = Buffer.concat(chunks);
      }
      return { status: Number(statusLine!.split(" ")[1]), headers, body: body.toString("utf8") };
    };
    const finish = () => {
      clearInterval(trickle);
      socket.destroy();
      const parsed = answer();
      if (parsed) resolve(parsed);
      else reject(new Error(`no complete answer: ${JSON.stringify(received.toString("latin1").slice(0, 500))}`));
    };
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (answer()) finish();
    });
    socket.on("close", finish);
    socket.on("error", () => {});
  });
}

function expectError(answer: RawAnswer | { status: number; headers: Headers; text: string }, status: number): { code: string; message: string; details?: Record<string, unknown> } {
  const headers = answer.headers instanceof Headers ? Object.fromEntries(answer.headers) : answer.headers;
  const text = "text" in answer ? answer.text : answer.body;
  expect(answer.status, text).toBe(status);
  expect(headers["content-type"]).toBe("application/json; charset=utf-8");
  const body = JSON.parse(text) as { error: { code: string; message: string; details?: Record<string, unknown> } };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  return body.error;
}

const SERVER_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

describe("requests the server answers before Next.js", () => {
  const cases: { name: string; request: string; status: number; allow?: string }[] = [
    { name: "a malformed percent-escape in an API path", request: "GET /api/drops/%zz HTTP/1.1\r\nHost: x\r\n\r\n", status: 400 },
    { name: "a lone % in a page path", request: "GET /p/% HTTP/1.1\r\nHost: x\r\n\r\n", status: 400 },
    { name: "an escape that is not UTF-8", request: "GET /api/drops/%ff HTTP/1.1\r\nHost: x\r\n\r\n", status: 400 },
    { name: "TRACE", request: "TRACE /api/drops HTTP/1.1\r\nHost: x\r\n\r\n", status: 405, allow: SERVER_METHODS },
    { name: "a WebDAV method on a page", request: "PROPFIND / HTTP/1.1\r\nHost: x\r\n\r\n", status: 405, allow: SERVER_METHODS },
    { name: "a method Node.js does not know", request: "FOO /api/me HTTP/1.1\r\nHost: x\r\n\r\n", status: 405, allow: SERVER_METHODS },
    { name: "CONNECT", request: "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", status: 405, allow: SERVER_METHODS },
    { name: "an asterisk target for GET", request: "GET * HTTP/1.1\r\nHost: x\r\n\r\n", status: 400 },
    { name: "an expectation other than 100-continue", request: "GET /api/me HTTP/1.1\r\nHost: x\r\nExpect: a-miracle\r\n\r\n", status: 417 },
    { name: "a missing Host header", request: "GET /api/me HTTP/1.1\r\n\r\n", status: 400 },
    { name: "a header line without a colon", request: "GET /api/me HTTP/1.1\r\nHost: x\r\nBad header\r\n\r\n", status: 400 },
    { name: "a malformed chunked body", request: "POST /api/drops HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 400 },
    { name: "a 20 KB URL", request: `GET /api/drops?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 414 },
    { name: "a 20 KB header", request: `GET /api/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, status: 431 },
  ];
  for (const { name, request, status, allow } of cases) {
    it(`${name} → ${status} in the Error shape`, async () => {
      const answer = await raw(request);
      const error = expectError(answer, status);
      expect(error.code).toBe("invalid_arg");
      if (allow) expect(answer.headers.allow).toBe(allow);
    });
  }

  it("answers OPTIONS * with the server's methods", async () => {
    const answer = await raw("OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(204);
    expect(answer.headers.allow).toBe(SERVER_METHODS);
  });

  it("takes a request in absolute form as its path, never redirecting to the URL it names", async () => {
    const answer = await raw("GET http://evil.example/api/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(expectError(answer, 401).code).toBe("token_required");
  });

  it("answers a request with an Upgrade header (curl --http2 sends one) as a plain request", async () => {
    await app.api("/api/me");
    const answer = await raw("GET /api/me HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, close\r\nUpgrade: h2c\r\n\r\n");
    expect(expectError(answer, 401).code).toBe("token_required");
  });

  it("cuts off headers that trickle in, with a 408 in the Error shape", async () => {
    const answer = await raw("GET /api/me HTTP/1.1\r\nHost: x\r\n", { trickle: "X-Slow: 1\r\n" });
    expect(expectError(answer, 408).message).toContain("did not arrive in time");
  });

  it("takes a client that hangs up in the middle of a body as a refused request, not a failure", async () => {
    const socket = connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.on("connect", resolve));
    socket.write(`POST /api/drops HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    // The server notices the hang-up within milliseconds; an internal error would be logged by now.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(app.logs()).not.toContain("unhandled error");
  });

  it("reports the time limits it set for slow clients", () => {
    expect(app.logs()).toContain("htmldrop: slow clients are cut off after 10 s for headers, 120 s for a whole request");
  });
});

describe("methods a path does not take", () => {
  const cases: { method: string; path: string; allow: string }[] = [
    { method: "PUT", path: "/mcp", allow: "POST" },
    { method: "PATCH", path: "/mcp", allow: "POST" },
    { method: "PUT", path: "/openapi.json", allow: "GET" },
    { method: "POST", path: "/llms.txt", allow: "GET" },
    { method: "DELETE", path: "/.well-known/api-catalog", allow: "GET" },
    { method: "POST", path: "/.well-known/agent-card.json", allow: "GET" },
    { method: "GET", path: "/p/<slug>/unlock", allow: "POST" },
    { method: "GET", path: "/p/<slug>/lock", allow: "POST" },
    { method: "PUT", path: "/api/auth/session", allow: "GET, POST" },
    { method: "OPTIONS", path: "/", allow: "GET, HEAD, POST" },
    { method: "PUT", path: "/", allow: "GET, HEAD, POST" },
    { method: "DELETE", path: "/dashboard", allow: "GET, HEAD, POST" },
    { method: "PATCH", path: "/p/<slug>", allow: "GET, HEAD, POST" },
    { method: "OPTIONS", path: "/no/such/page", allow: "GET, HEAD, POST" },
  ];
  for (const { method, path, allow } of cases) {
    it(`${method} ${path} → 405 with Allow: ${allow}`, async () => {
      const answer = await app.api(path.replace("<slug>", slug), { method });
      expect(expectError(answer, 405)).toMatchObject({ code: "invalid_arg", details: { allow: allow.split(", ") } });
      expect(answer.headers.get("allow")).toBe(allow);
    });
  }

  it("still lets route handlers answer OPTIONS and pages answer GET", async () => {
    expect((await app.api("/api/drops", { method: "OPTIONS" })).status).toBe(204);
    expect((await app.api("/openapi.json", { method: "OPTIONS" })).status).toBe(204);
    expect((await app.api(`/p/${slug}`)).status).toBe(200);
  });

  it("answers a lock for a path that cannot be a drop with not_found", async () => {
    expect(expectError(await app.api("/p/NOT-A-SLUG/lock", { method: "POST" }), 404).code).toBe("not_found");
  });
});

describe("what the fuzz found past Next.js's routing", () => {
  it("answers /api itself and paths below /mcp with not_found, not an HTML page", async () => {
    for (const [method, path] of [["GET", "/api"], ["HEAD", "/api"], ["POST", "/mcp/tools"], ["OPTIONS", "/mcp/x"]] as const) {
      const res = await app.api(path, { method });
      if (method === "HEAD") expect([res.status, res.headers.get("content-type")]).toEqual([404, "application/json; charset=utf-8"]);
      else expect(expectError(res, 404).code).toBe("not_found");
    }
  });

  it("refuses a server action whose body no form could send, before and after Next decodes it", async () => {
    const notAForm = await app.api("/verify", { method: "POST", headers: { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" }, rawBody: "[" });
    expect(expectError(notAForm, 400).code).toBe("invalid_arg");
    const actionId = /\$ACTION_ID_([0-9a-f]+)/.exec(await (await fetch(`${app.baseUrl}/verify?code=BCDF-GHJK`)).text())?.[1];
    const brokenForm = await app.api("/dashboard/account", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x", ...(actionId ? { "next-action": actionId } : {}) },
      rawBody: "--x\r\nContent-Disposition: form-data; name=\"0\"\r\n\r\n[\"$K1\"",
    });
    expect(expectError(brokenForm, 400).code).toBe("invalid_arg");
  });

  it("answers next-auth's refusals as Errors and sends its error page's visitors to the app's own", async () => {
    expect(expectError(await app.api("/api/auth/not-an-action"), 400).code).toBe("invalid_arg");
    expect(expectError(await app.api("/api/auth/callback/github", { method: "POST", rawBody: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } }), 400).code).toBe("invalid_arg");
    const errorPage = await fetch(`${app.baseUrl}/api/auth/error?error=Configuration`, { redirect: "manual" });
    expect(errorPage.status).toBe(302);
    expect(errorPage.headers.get("location")).toBe("/signin/error?error=Configuration");
    const notice = await fetch(new URL(errorPage.headers.get("location")!, app.baseUrl));
    expect(notice.status).toBe(200);
    expect(await notice.text()).toContain(SIGN_IN_ERROR_PAGE_MESSAGES.Configuration);
  });
});

describe("what the fuzz found at other seeds", () => {
  /** A hand-made call of /verify's action: `root` stands where React's encoding of its arguments belongs. */
  function actionRequest(path: string, { root = '["$K1"]', headers = "" }: { root?: string; headers?: string } = {}): string {
    const body = `--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n${root}\r\n--x\r\nContent-Disposition: form-data; name="1_code"\r\n\r\nBCDF-GHJK\r\n--x--\r\n`;
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nNext-Action: ${serverActionIds().approveDeviceAction}\r\nContent-Type: multipart/form-data; boundary=x\r\n${headers}`;
    return `${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  }

  /** The server's log lines written while `run` runs. */
  async function loggedDuring(run: () => Promise<void>): Promise<string> {
    const before = app.logs().length;
    await run();
    await new Promise((resolve) => setTimeout(resolve, 200));
    return app.logs().slice(before);
  }

  it("refuses a JSON body next-auth could not parse, on any of its paths, as invalid_json", async () => {
    const cases = [
      ["/api/auth/callback/credentials", "application/json; charset=latin1", "csrfToken=x&username=a"],
      ["/api/auth/start/raw", "application/json", "undefined"],
      [`/api/auth/${"a".repeat(7000)}`, "application/json", ""],
    ] as const;
    const logged = await loggedDuring(async () => {
      for (const [path, contentType, body] of cases) {
        const answer = await app.api(path, { method: "POST", headers: { "content-type": contentType }, rawBody: body });
        expect(expectError(answer, 400).code).toBe("invalid_json");
      }
    });
    expect(logged).toBe("");
    // A body that parses still reaches next-auth, which refuses this one for its missing CSRF token.
    const parsed = await app.api("/api/auth/session", { method: "POST", body: { csrfToken: "x" } });
    expect(expectError(parsed, 400).message).toBe("Sign-in does not answer POST /api/auth/session.");
  });

  it("takes /api/../lock as the page /lock that Next serves, so that a form it cannot read is refused", async () => {
    const body = '{"title":';
    const answer = await raw(`POST /api/../lock HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect(expectError(answer, 400).code).toBe("invalid_arg");
  });

  it("refuses an action sent from another site before Next, whose check would log an error", async () => {
    const logged = await loggedDuring(async () => {
      for (const origin of ["http://localhost:1", "::::", "null"]) {
        expect(expectError(await raw(actionRequest("/verify", { headers: `Origin: ${origin}\r\n` })), 403).code).toBe("forbidden");
      }
      // From this host, or the one a proxy names, the action reaches Next (which cannot read this body).
      const ownPage = await raw(actionRequest("/verify", { root: "[", headers: `Origin: http://127.0.0.1:${port}\r\n` }));
      expect(expectError(ownPage, 400).code).toBe("invalid_arg");
      const proxied = await raw(actionRequest("/verify", { root: "[", headers: "Origin: https://drops.example\r\nX-Forwarded-Host: drops.example\r\n" }));
      expect(expectError(proxied, 400).code).toBe("invalid_arg");
    });
    expect(logged).not.toMatch(/Invalid Server Actions request|Invalid URL/);
  });

  it("refuses a multipart action without a boundary before Next, whose parser would log an error", async () => {
    const logged = await loggedDuring(async () => {
      const answer = await raw(actionRequest("/verify").replace("multipart/form-data; boundary=x", "multipart/form-data"));
      expect(expectError(answer, 400).code).toBe("invalid_arg");
    });
    expect(logged).not.toContain("Boundary not found");
  });

  it("refuses an action Next forwards to its own page, which cannot read it, in the Error shape rather than {}", async () => {
    for (const path of ["/no-such-page", "/signin"]) expect(expectError(await raw(actionRequest(path, { root: "\u0001" })), 400).code).toBe("invalid_arg");
  });

  it("serves a public file whole whatever precondition or range it is asked with, which Next's file server answered with a 500 (seed 207)", async () => {
    const whole = await fetch(`${app.baseUrl}/favicon.ico`);
    const size = (await whole.arrayBuffer()).byteLength;
    for (const [name, value] of [["if-match", '"x"'], ["if-unmodified-since", "Thu, 01 Jan 1970 00:00:00 GMT"], ["range", "bytes=5-1"], ["range", `bytes=${size * 2}-`]] as const) {
      const answer = await fetch(`${app.baseUrl}/favicon.ico`, { headers: { [name]: value } });
      expect(answer.status, `${name}: ${value}`).toBe(200);
      expect((await answer.arrayBuffer()).byteLength).toBe(size);
    }
  });

  it("refuses an action for another page sent with an empty Host, which Next could not forward (seed 119)", async () => {
    const logged = await loggedDuring(async () => {
      const answer = await raw(actionRequest("/no-such-page").replace(`Host: 127.0.0.1:${port}`, "Host: "));
      expect(expectError(answer, 400).code).toBe("invalid_arg");
    });
    expect(logged).not.toContain("Missing `host` header");
  });

  it("refuses a urlencoded POST to a page sent as a router fetch (RSC: 1), which Next fails on (seed 113)", async () => {
    const logged = await loggedDuring(async () => {
      for (const path of ["/no-such-page", `/p/abc/${"a".repeat(7000)}`]) {
        const answer = await app.api(path, { method: "POST", headers: { rsc: "1", "content-type": "application/x-www-form-urlencoded" }, rawBody: "x=1" });
        expect(expectError(answer, 400).code, path.slice(0, 20)).toBe("invalid_arg");
      }
    });
    expect(logged).not.toContain("Expected RSC response");
  });
});

describe("sign-in bodies", () => {
  it("refuses large sign-in bodies before next-auth reads them", async () => {
    const form = `csrfToken=x&username=${"a".repeat(100 * 1024)}`;
    const large = await app.api("/api/auth/callback/credentials", { method: "POST", rawBody: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(large.status).toBe(413);
    expect(large.body.error).toMatchObject({ code: "invalid_arg", details: { max_bytes: 65_536 } });

    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("csrfToken=x"));
        controller.close();
      },
    });
    const chunked = await fetch(`${app.baseUrl}/api/auth/callback/credentials`, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(411);
    expect((await chunked.json()).error.code).toBe("invalid_arg");
  });
});
