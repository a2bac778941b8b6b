// The htmldrop command-line client (cli/), built by `npm run build`, run as a child process against a
// running server: each command's success and failure, its exit codes, the login it stores.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startApp, type TestApp } from "../helpers/app";
import { approveOverHttp, signInBrowserless } from "../helpers/device-flow";

const CLI = join(import.meta.dirname, "..", "..", "cli", "dist", "htmldrop.mjs");
const URL_LINE = /^http:\/\/localhost:\d+\/p\/[0-9a-z]{12}$/;
const EXIT = { refused: 1, usage: 2, auth: 3, notFound: 4, unavailable: 5 };

let app: TestApp;
let scratch: string;
let browserLog: string;
let files = 0;
/** Commands that keep running (login, watch): stopped after the file, should a test fail before it stops them. */
const longRunning = new Set<ChildProcessWithoutNullStreams>();

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error("No built CLI at cli/dist/htmldrop.mjs: run `npm run build`.");
  app = await startApp();
  scratch = mkdtempSync(join(tmpdir(), "htmldrop-cli-"));
  // A stand-in browser ($BROWSER) that notes the URLs it is asked to open.
  browserLog = join(scratch, "browser.log");
  writeFileSync(join(scratch, "browser"), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${browserLog}'\n`);
  chmodSync(join(scratch, "browser"), 0o755);
});
afterAll(async () => {
  for (const child of longRunning) if (child.exitCode === null) child.kill("SIGKILL");
  await app?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

type RunOptions = { token?: string; url?: string; env?: Record<string, string>; input?: string; configHome?: string };
type Run = { code: number | null; stdout: string; stderr: string };

/** The command's environment: this server and token (as CI passes them), a config folder, no display, no colour settings. */
function environment(options: RunOptions): NodeJS.ProcessEnv {
  return {
    NODE_ENV: process.env.NODE_ENV,
    PATH: process.env.PATH ?? "",
    HOME: scratch,
    XDG_CONFIG_HOME: options.configHome ?? join(scratch, "no-login"),
    BROWSER: join(scratch, "browser"),
    ...(options.url !== "" ? { HTMLDROP_URL: options.url ?? app.baseUrl } : {}),
    ...(options.token ? { HTMLDROP_TOKEN: options.token } : {}),
    ...options.env,
  };
}

function start(args: string[], options: RunOptions = {}): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: scratch, env: environment(options) });
  child.stdin.end(options.input ?? "");
  return child;
}

function run(args: string[], options: RunOptions = {}): Promise<Run> {
  const child = start(args, options);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Runs a command that must succeed; answers its stdout. */
async function ok(args: string[], options: RunOptions = {}): Promise<string> {
  const result = await run(args, options);
  expect(result.code, `htmldrop ${args.join(" ")}\n${result.stderr}`).toBe(0);
  expect(result.stderr).not.toContain("\u001b[");
  return result.stdout;
}

/** Runs a command that must fail with `code` and print nothing on stdout; answers its error. */
async function fails(code: number, args: string[], options: RunOptions = {}): Promise<string> {
  const result = await run(args, options);
  expect(result.code, `htmldrop ${args.join(" ")}\n${result.stdout}${result.stderr}`).toBe(code);
  expect(result.stdout).toBe("");
  return result.stderr.trim().replace(/^htmldrop: /, "");
}

function file(content: string, name = `page-${++files}.html`): string {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
}

type Followed = {
  output: { stdout: string; stderr: string };
  /** Waits until `pattern` matches all `stream` has printed so far; answers the match. */
  until(stream: "stdout" | "stderr", pattern: RegExp): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
};

/** A command that keeps running (login, watch), its output collected from the start. */
function follow(args: string[], options: RunOptions = {}): Followed & { child: ChildProcessWithoutNullStreams } {
  const child = start(args, options);
  longRunning.add(child);
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk) => (output.stdout += chunk));
  child.stderr.on("data", (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const until = async (stream: "stdout" | "stderr", pattern: RegExp) => {
    for (const started = Date.now(); ; await new Promise((resolve) => setTimeout(resolve, 25))) {
      const match = pattern.exec(output[stream]);
      if (match) return match;
      if (Date.now() - started > 15_000 || child.exitCode !== null) throw new Error(`no ${pattern} in ${stream}:\n${output.stdout}${output.stderr}`);
    }
  };
  return { child, output, until, exited };
}

const openedInBrowser = () => (existsSync(browserLog) ? readFileSync(browserLog, "utf8").split("\n") : []);

async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > timeoutMs) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const slugOf = (url: string) => url.trim().split("/").at(-1)!;

/** A drop to run commands on, made through the API: publishing through the command is tested on its own. */
async function dropOf(token: string, title: string): Promise<string> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title, html: `<p>${title}</p>` } });
  expect(created.status).toBe(201);
  return created.body.slug;
}

describe.concurrent("htmldrop", () => {
  it("logs in through the device flow, keeps the token mode 0600, sends it only to its server, and logs out by revoking it", async () => {
    const configHome = join(scratch, "login");
    const login = follow(["login", "--url", app.baseUrl, "--label", "cli laptop"], { url: "", configHome });
    const [, code] = await login.until("stderr", /code ([A-Z]{4}-[A-Z]{4})/);
    const person = await signInBrowserless(app, "cli-login");
    expect((await approveOverHttp(person, code!)).status).toBe(303);
    expect(await login.exited).toBe(0);
    expect(openedInBrowser()).toContain(`${app.baseUrl}/verify?code=${code}`);

    const stored = join(configHome, "htmldrop", "config.json");
    expect(statSync(stored).mode & 0o777).toBe(0o600);
    expect(statSync(join(configHome, "htmldrop")).mode & 0o777).toBe(0o700);
    const { url, token } = JSON.parse(readFileSync(stored, "utf8"));
    expect(url).toBe(app.baseUrl);
    const me = await app.api("/api/me", { token });
    expect(login.output.stdout).toBe(`Logged in to ${app.baseUrl} as user ${me.body.user_id}.\n`);
    expect(me.body.token.label).toBe("cli laptop");

    const whoami = await ok(["whoami"], { url: "", configHome });
    expect(whoami).toContain(`User:   ${me.body.user_id}`);
    expect(whoami).toContain(`Token:  cli laptop (${me.body.token.id})`);
    expect(whoami).not.toContain(token);
    // HTMLDROP_URL naming another server: the stored token is not sent there.
    expect(await fails(EXIT.auth, ["ls"], { url: "http://127.0.0.1:9", configHome })).toBe("Not logged in to http://127.0.0.1:9: run htmldrop login, or set HTMLDROP_TOKEN.");

    expect(await ok(["logout"], { url: "", configHome })).toBe(`Logged out of ${app.baseUrl}; the token is revoked and forgotten.\n`);
    expect(existsSync(stored)).toBe(false);
    expect((await app.api("/api/me", { token })).status).toBe(401);
    await fails(EXIT.auth, ["whoami"], { url: "", configHome });
  });

  it("publishes a file or stdin, prints only the URL, and sends the title, tags, context, passcode and expiry", async () => {
    const token = await app.createToken("cli-publish");
    const context = file("I kept the summary first.", "context.txt");
    const page = file("<!doctype html><html><head><title>Q3 &amp; Q4 report</title></head><body><p>numbers</p></body></html>");
    const [json, piped, large, opened] = await Promise.all([
      ok(["publish", page, "--tag", "team=web", "--tag", "kind=report", "--description", "Quarterly", "--context", context, "--passcode", "sesame", "--expires", "7d", "--json"], { token }),
      run(["publish", "-", "--title", "From a pipe"], { token, input: "<p>piped</p>" }),
      run(["publish", file(`<title>Large</title><p>${"x".repeat(1_200_000)}</p>`, "large.html")], { token }),
      ok(["publish", file("<p>opened</p>", "opened.html"), "--open"], { token }),
    ]);

    const drop = JSON.parse(json);
    expect(drop).toMatchObject({ title: "Q3 & Q4 report", description: "Quarterly", locked: true, latest_version: 1, metadata: { team: "web", kind: "report" } });
    expect(drop.expires_at - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect((await app.api(`/api/drops/${drop.slug}/v/1`, { token })).body.context).toBe("I kept the summary first.");

    expect(piped.code).toBe(0);
    expect(piped.stdout.trim()).toMatch(URL_LINE);
    expect(piped.stderr).toBe(`Created ${slugOf(piped.stdout)}: version 1.\n`);
    expect((await app.api(`/api/drops/${slugOf(piped.stdout)}`, { token })).body.title).toBe("From a pipe");
    // A body over a megabyte announces its upload; the title falls back to the file's name without <title>.
    expect(large.stderr).toContain("Uploading large.html (1.1 MB)…");
    expect(opened.trim()).toMatch(URL_LINE);
    expect((await app.api(`/api/drops/${slugOf(opened)}`, { token })).body.title).toBe("opened");
    await eventually(() => openedInBrowser().includes(opened.trim()));
  });

  it("upserts: the first publish creates the tagged drop, the second adds a version to it", async () => {
    const token = await app.createToken("cli-upsert");
    const first = await ok(["publish", file("<title>PR 7</title><p>one</p>"), "--upsert", "pr=7", "--upsert", "repo=acme"], { token });
    const other = await ok(["publish", file("<title>PR 8</title><p>other</p>"), "--upsert", "pr=8", "--upsert", "repo=acme"], { token });
    const second = await run(["publish", file("<title>PR 7</title><p>two</p>"), "--upsert", "pr=7", "--upsert", "repo=acme", "--tag", "state=open"], { token });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first);
    expect(second.stderr).toBe(`Updated ${slugOf(first)}: version 2.\n`);
    expect(other).not.toBe(first);
    const listed = JSON.parse(await ok(["ls", "--tag", "pr=7", "--json"], { token }));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ slug: slugOf(first), latest_version: 2, metadata: { pr: "7", repo: "acme", state: "open" } });
  });

  it("retries a publish whose answer was lost with the same Idempotency-Key, and makes one drop", async () => {
    const token = await app.createToken("cli-retry");
    const keys: string[] = [];
    // Passes requests to the server, but cuts the connection instead of returning the first POST's answer.
    const proxy: Server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
        const headers = new Headers();
      for (const name of ["authorization", "content-type", "idempotency-key", "accept"]) if (request.headers[name]) headers.set(name, String(request.headers[name]));
      const answer = await fetch(`http://127.0.0.1:${app.env.PORT}${request.url}`, { method: request.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const body = Buffer.from(await answer.arrayBuffer());
      if (request.method === "POST" && keys.push(String(request.headers["idempotency-key"])) === 1) {
        request.socket.destroy();
        return;
      }
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const port = (proxy.address() as { port: number }).port;
    try {
      const url = await ok(["publish", file("<title>Once</title>"), "--tag", "retry=1"], { token, url: `http://127.0.0.1:${port}` });
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      const listed = await app.api("/api/drops?metadata.retry=1", { token });
      expect(listed.body.data.map((drop: { slug: string }) => drop.slug)).toEqual([slugOf(url)]);
    } finally {
      proxy.close();
    }
    // A CI job run again with the same key gets the first drop back.
    const page = file("<title>Rerun</title>");
    const once = await ok(["publish", page, "--idempotency-key", "run-41"], { token });
    expect(await ok(["publish", page, "--idempotency-key", "run-41"], { token })).toBe(once);
  });

  it("updates, shows a drop, lists versions and diffs them", async () => {
    const token = await app.createToken("cli-versions");
    const url = await ok(["publish", file("<title>Plan</title>\n<p>one</p>\n")], { token });
    const slug = slugOf(url);
    const single = await fails(EXIT.refused, ["diff", slug], { token });
    expect(single).toBe(`${slug} has no version before v1 to compare it with.`);
    expect(await ok(["update", slug, file("<title>Plan</title>\n<p>two</p>\n"), "--title", "Plan B", "--tag", "stage=draft"], { token })).toBe(url);

    const [shown, versions, latest, pinned, same] = await Promise.all([
      ok(["get", slug], { token }),
      ok(["versions", slug, "--json"], { token }),
      ok(["diff", slug], { token }),
      ok(["diff", slug, "1", "v2"], { token }),
      run(["diff", slug, "2", "2"], { token }),
    ]);
    expect(shown).toContain("Title:       Plan B\n");
    expect(shown).toContain(`URL:         ${url}`);
    expect(shown).toContain("Version:     2\n");
    expect(shown).toContain("Tags:        stage=draft\n");
    expect(JSON.parse(versions).map((item: { version: number }) => item.version)).toEqual([1, 2]);
    expect(latest).toContain("--- v1/index.html\n+++ v2/index.html\n");
    expect(latest).toContain("-<p>one</p>\n+<p>two</p>\n");
    expect(pinned).toBe(latest);
    expect(same).toMatchObject({ code: 0, stdout: "", stderr: "v2 and v2 are the same.\n" });

    const missing = await app.api(`/api/drops/${slug}/diff?from=1&to=9`, { token });
    expect(await fails(EXIT.notFound, ["diff", slug, "1", "9"], { token })).toBe(missing.body.error.message);
    expect(await fails(EXIT.usage, ["diff", slug, "one"], { token })).toBe('FROM is a version number like 3 (or v3); got "one".');
    expect(JSON.parse(await ok(["get", slug, "--json"], { token }))).toEqual((await app.api(`/api/drops/${slug}`, { token })).body);
  });

  it("deletes a drop only when told yes", async () => {
    const token = await app.createToken("cli-rm");
    const [kept, deleted, forced] = await Promise.all(["kept", "deleted", "forced"].map((title) => dropOf(token, title)));
    const [no, yes, withoutAsking] = await Promise.all([
      run(["rm", kept!], { token, input: "n\n" }),
      run(["rm", deleted!], { token, input: "y\n" }),
      run(["rm", forced!, "--yes"], { token }),
    ]);
    expect(no).toMatchObject({ code: EXIT.refused, stdout: "" });
    expect(no.stderr).toBe(`Delete "kept" (${kept}) and its version? [y/N] htmldrop: Nothing deleted.\n`);
    expect(yes).toMatchObject({ code: 0, stdout: `Deleted ${deleted}.\n` });
    expect(withoutAsking).toMatchObject({ code: 0, stdout: `Deleted ${forced}.\n` });
    expect((await app.api(`/api/drops/${kept}`, { token })).status).toBe(200);
    expect((await app.api(`/api/drops/${deleted}`, { token })).status).toBe(404);
    expect(await fails(EXIT.notFound, ["rm", forced!, "--yes"], { token })).toBe((await app.api(`/api/drops/${forced}`, { token })).body.error.message);
  });

  it("sets a passcode given or typed, refuses a short one with the server's words, and clears it", async () => {
    const token = await app.createToken("cli-passcode");
    const slug = await dropOf(token, "Gated");
    expect(await ok(["passcode", slug, "sesame"], { token })).toBe(`${slug} now asks for the passcode.\n`);
    expect(await ok(["passcode", slug], { token, input: "open sesame\n" })).toBe(`${slug} now asks for the passcode.\n`);
    expect((await app.api(`/api/drops/${slug}`, { token })).body.locked).toBe(true);
    const short = await app.api(`/api/drops/${slug}/passcode`, { method: "POST", token, body: { passcode: "abc" } });
    expect(await fails(EXIT.refused, ["passcode", slug, "abc"], { token })).toBe(short.body.error.message);
    expect(await ok(["passcode", slug, "--clear"], { token })).toBe(`${slug} no longer asks for a passcode.\n`);
    expect((await app.api(`/api/drops/${slug}`, { token })).body.locked).toBe(false);
  });

  it("reads the comments that wait for an answer and resolves them", async () => {
    const token = await app.createToken("cli-comments");
    const slug = await dropOf(token, "Reviewed");
    expect((await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { comments: "anyone" } })).status).toBe(200);
    const posted = await fetch(`${app.baseUrl}/p/${slug}/comments`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.baseUrl },
      body: JSON.stringify({ v: 1, body: "The totals do not add up.", quote: "numbers", name: "Reviewer" }),
    });
    expect(posted.status).toBe(201);
    const { id } = await posted.json();

    const open = await ok(["comments", slug, "--unresolved"], { token });
    expect(open).toContain(`${id}  v1  Reviewer (guest)`);
    expect(open).toContain("  > numbers\n  The totals do not add up.\n");
    expect(await ok(["comments", slug, "--resolve", id], { token })).toBe(`Resolved ${id}.\n`);
    const [none, all] = await Promise.all([run(["comments", slug, "--unresolved"], { token }), ok(["comments", slug], { token })]);
    expect(none).toMatchObject({ code: 0, stdout: "", stderr: "No open comments.\n" });
    expect(all).toContain("(resolved)");
    await fails(EXIT.notFound, ["comments", slug, "--resolve", "A".repeat(20)], { token });
  });

  it("shows a drop's views per day and version", async () => {
    const token = await app.createToken("cli-stats");
    const slug = await dropOf(token, "Watched");
    expect((await fetch(`${app.baseUrl}/p/${slug}/view?v=1`, { method: "POST", headers: { "sec-fetch-site": "same-origin" } })).status).toBe(204);
    // Views reach the counters in a batch just after the beacon.
    for (let attempt = 0; attempt < 100 && (await app.api(`/api/drops/${slug}/stats`, { token })).body.total_views === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const counted = await ok(["stats", slug, "--days", "7"], { token });
    const today = new Date().toISOString().slice(0, 10);
    expect(counted).toMatch(new RegExp(`^1 view from \\d{4}-\\d{2}-\\d{2} to ${today} \\(7 days, UTC\\); 1 view in all\\.\n`));
    expect(counted).toContain(`${today}  1\n`);
    expect(counted).toContain("v1       1\n");
    const tooMany = await app.api(`/api/drops/${slug}/stats?days=999`, { token });
    expect(await fails(EXIT.refused, ["stats", slug, "--days", "999"], { token })).toBe(tooMany.body.error.message);
  });

  it("lists tokens, prints a new one only when creating it, and revokes it", async () => {
    const token = await app.createToken("cli-tokens");
    const created = await run(["tokens", "create", "--label", "ci", "--scope", "drops:read", "--expires", "1d"], { token });
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^hd_[0-9A-Za-z]{40}$/);
    const id = /Created token ([0-9a-f]{12}) with drops:read, expiring /.exec(created.stderr)![1]!;

    const [listed, readOnly, forbidden] = await Promise.all([
      ok(["tokens"], { token }),
      ok(["ls", "--json"], { token: secret }),
      run(["publish", file("<title>Not allowed</title>")], { token: secret }),
    ]);
    expect(listed).toMatch(new RegExp(`${id}  ci +drops:read +.* active\n`));
    expect(listed).not.toContain(secret);
    expect(JSON.parse(readOnly)).toEqual([]);
    expect(forbidden.code).toBe(EXIT.auth);
    expect(forbidden.stderr).toContain("drops:write");

    expect(await ok(["tokens", "revoke", id], { token })).toBe(`Revoked ${id}.\n`);
    expect(JSON.parse(await ok(["tokens", "ls", "--json"], { token })).find((item: { id: string }) => item.id === id).revoked_at).toBeTypeOf("number");
    const refused = await app.api("/api/me", { token: secret });
    expect(await fails(EXIT.auth, ["whoami"], { token: secret })).toBe(`${refused.body.error.message} Check HTMLDROP_TOKEN.`);
    await fails(EXIT.notFound, ["tokens", "revoke", "000000000000"], { token });
  });

  it("lists patterns, prints one, and writes its template as a starting point", async () => {
    const token = await app.createToken("cli-patterns");
    const target = join(scratch, "explainer.html");
    const [listed, guide, written, missing] = await Promise.all([
      ok(["patterns"], { token }),
      ok(["patterns", "show", "pr-explainer"], { token }),
      run(["patterns", "show", "pr-explainer", "--template", target], { token }),
      run(["patterns", "show", "no-such-pattern"], { token }),
    ]);
    expect(listed).toMatch(/^pr-explainer +builtin +yes +/m);
    const pattern = (await app.api("/api/patterns/pr-explainer", { token })).body;
    expect(guide).toBe(`${pattern.markdown.trimEnd()}\n`);
    expect(written.code).toBe(0);
    expect(readFileSync(target, "utf8")).toBe(pattern.template);
    expect(missing.code).toBe(EXIT.notFound);
    expect(await fails(EXIT.usage, ["patterns", "show", "pr-explainer", "--template", target], { token })).toBe(`${target} exists; pass --force to overwrite it.`);
    await ok(["patterns", "show", "pr-explainer", "--template", target, "--force"], { token });
  });

  it("watches a file: one version per change, none for a save of the same bytes", async () => {
    const token = await app.createToken("cli-watch");
    const folder = join(scratch, "watched");
    mkdirSync(folder);
    const page = join(folder, "live.html");
    writeFileSync(page, "<title>Live</title><p>1</p>");
    const watcher = follow(["watch", page], { token });
    const [, url] = await watcher.until("stdout", /^(http\S+)\n/);
    const slug = slugOf(url!);
    await watcher.until("stdout", /^v1 {2}\d\d:\d\d:\d\d UTC {2}27 B$/m);
    writeFileSync(page, "<title>Live</title><p>2</p>");
    await watcher.until("stdout", /^v2 /m);
    // The same bytes again, then a change: the change is version 3, so the save between published nothing.
    writeFileSync(page, "<title>Live</title><p>2</p>");
    await new Promise((resolve) => setTimeout(resolve, 800));
    writeFileSync(page, "<title>Live</title><p>3</p>");
    await watcher.until("stdout", /^v3 /m);
    watcher.child.kill("SIGINT");
    expect(await watcher.exited).toBe(0);
    expect(watcher.output.stdout.split("\n").map((line) => line.split(" ")[0])).toEqual([url, "v1", "v2", "v3", ""]);
    expect((await app.api(`/api/drops/${slug}/versions`, { token })).body).toHaveLength(3);

    // On an existing drop, the file as it is counts as published: the first save is the next version.
    const onSlug = follow(["watch", page, "--slug", slug], { token });
    await onSlug.until("stdout", /^http\S+\n/);
    expect(onSlug.output.stdout).toBe(`${url}\n`);
    writeFileSync(page, "<title>Live</title><p>4</p>");
    await onSlug.until("stdout", /^v4 /m);
    onSlug.child.kill("SIGINT");
    expect(await onSlug.exited).toBe(0);
  });

  it("exits with a code for each kind of failure, with the server's message", async () => {
    const token = await app.createToken("cli-errors");
    const unknownToken = `hd_${"A".repeat(40)}`;
    const closedPort = await freePort();
    const [unauthorized, tooLong] = await Promise.all([
      app.api("/api/me", { token: unknownToken }),
      app.api("/api/drops", { method: "POST", token, body: { title: "t".repeat(201), html: "<p></p>" } }),
    ]);
    const page = file("<p>no title</p>");
    const cases: [number, string[], RunOptions, string | RegExp][] = [
      [EXIT.usage, ["publish"], { token }, /^error: missing required argument 'file'\n/],
      [EXIT.usage, ["frobnicate"], { token }, /^error: unknown command 'frobnicate'\n/],
      [EXIT.usage, ["publish", page, "--tag", "novalue"], { token }, '--tag takes key=value, like --tag pr=42; got "novalue".'],
      [EXIT.usage, ["publish", page, "--expires", "7x"], { token }, /^--expires takes a lifetime like 45m/],
      [EXIT.usage, ["publish", join(scratch, "missing.html")], { token }, `Cannot read ${join(scratch, "missing.html")} (ENOENT).`],
      [EXIT.usage, ["publish", "-"], { token, input: "<p>untitled</p>" }, "The HTML has no <title>: give one with --title."],
      [EXIT.usage, ["login"], { url: "" }, "Which server? Run htmldrop login --url https://drops.example.com."],
      [EXIT.auth, ["ls"], {}, `Not logged in to ${app.baseUrl}: run htmldrop login, or set HTMLDROP_TOKEN.`],
      [EXIT.auth, ["ls"], { token: unknownToken }, `${unauthorized.body.error.message} Check HTMLDROP_TOKEN.`],
      [EXIT.notFound, ["get", "nosuchdrop12"], { token }, /^No drop/],
      [EXIT.refused, ["publish", page, "--title", "t".repeat(201)], { token }, tooLong.body.error.message],
      [EXIT.unavailable, ["ls"], { token, url: `http://127.0.0.1:${closedPort}` }, `Cannot reach http://127.0.0.1:${closedPort} (ECONNREFUSED).`],
    ];
    const results = await Promise.all(cases.map(([code, args, options]) => fails(code, args, options)));
    results.forEach((message, index) => {
      const expected = cases[index]![3];
      if (typeof expected === "string") expect(message).toBe(expected);
      else expect(message).toMatch(expected);
    });

    const help = await run(["publish", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Examples:\n  $ htmldrop publish report.html\n");
  });
});
