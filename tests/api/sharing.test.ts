// Issue 30: who opens a drop of each access level, on every surface that serves or lists one. One
// server; each person reaches it one way only (a browser session or a token), so that where sign-in
// and tokens make different accounts (the serverless project) nobody is two people.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { signInAs } from "../helpers/session";

let app: TestApp;
const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

type Level = "public" | "signed_in" | "restricted";
const LEVELS: Level[] = ["public", "signed_in", "restricted"];

/** Tokens: the owner, an editor and a viewer on every list, and an account on none. */
const tokens: Record<"olive" | "eddie" | "vera" | "ivy", string> = { olive: "", eddie: "", vera: "", ivy: "" };
/** Browser sessions: listed, a team member, a removed team member, on no list, and anonymous (no cookie). */
const sessions: Record<"lee" | "tess" | "rex" | "otto", string> = { lee: "", tess: "", rex: "", otto: "" };
/** Each level's drop, with two versions. */
const drops = {} as Record<Level, string>;

async function json(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
  return app.api(path, { ...init, token });
}

/** A browser request on the app's own origin, with or without a session. */
function browse(path: string, session: string | null, init: RequestInit = {}) {
  return fetch(`http://127.0.0.1:${app.env.PORT}${path}`, {
    redirect: "manual",
    ...init,
    headers: { ...(session ? { cookie: session } : {}), ...(init.headers as Record<string, string>) },
  });
}

beforeAll(async () => {
  app = await startApp();
  for (const name of Object.keys(tokens) as (keyof typeof tokens)[]) tokens[name] = await app.createToken(name);
  for (const name of Object.keys(sessions) as (keyof typeof sessions)[]) sessions[name] = await signInAs(app, name);

  const team = await json("/api/teams", tokens.olive, { method: "POST", body: { name: "Crew" } });
  expect(team.status, team.text).toBe(201);
  for (const login of ["tess", "rex"]) expect((await json(`/api/teams/${team.body.id}/members`, tokens.olive, { method: "POST", body: { login } })).status).toBe(201);

  for (const access of LEVELS) {
    const created = await json("/api/drops", tokens.olive, { method: "POST", body: { title: `For ${access}`, html: page("v1"), access } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.access).toBe(access === "public" ? undefined : access);
    const slug: string = created.body.slug;
    drops[access] = slug;
    expect((await json(`/api/drops/${slug}`, tokens.olive, { method: "PUT", body: { html: page("v2") } })).status).toBe(200);
    for (const entry of [{ login: "eddie", role: "editor" }, { login: "vera", role: "viewer" }, { login: "lee", role: "viewer" }, { team_id: team.body.id, role: "viewer" }]) {
      const added = await json(`/api/drops/${slug}/members`, tokens.olive, { method: "POST", body: entry });
      expect(added.status, added.text).toBe(201);
    }
  }
  // Rex was in the team when the drops were shared with it, and is no more.
  const rex = (await json(`/api/teams/${team.body.id}`, tokens.olive)).body.members.find((member: { login?: string }) => member.login === "rex");
  expect((await json(`/api/teams/${team.body.id}/members/${rex.id}`, tokens.olive, { method: "DELETE" })).status).toBe(204);
});
afterAll(async () => app?.stop());

type Visitor = keyof typeof sessions | "anonymous";
const ADMITTED: Record<Level, Visitor[]> = {
  public: ["anonymous", "otto", "lee", "tess", "rex"],
  signed_in: ["otto", "lee", "tess", "rex"],
  restricted: ["lee", "tess"],
};

describe("the browser's pages", () => {
  const visitors: Visitor[] = ["anonymous", "otto", "lee", "tess", "rex"];
  const cases = LEVELS.flatMap((level) => visitors.map((visitor) => [level, visitor] as const));

  it.each(cases)("%s drop, %s: viewer, raw, full page, compare, preview image and view beacon", async (level, visitor) => {
    const slug = drops[level];
    const session = visitor === "anonymous" ? null : sessions[visitor];
    const admitted = ADMITTED[level].includes(visitor);
    const viewer = await browse(`/p/${slug}`, session);
    const raw = await browse(`/p/${slug}/raw?v=1`, session);
    const compare = await browse(`/p/${slug}/compare?from=1&to=2`, session);
    const full = await browse(`/p/${slug}/full`, session);
    const og = await browse(`/p/${slug}/og.png?v=2`, session);
    const beacon = await browse(`/p/${slug}/view?v=2`, session, { method: "POST", headers: { origin: app.baseUrl, "sec-fetch-site": "same-origin" } });
    if (admitted) {
      expect([viewer.status, raw.status, compare.status, full.status, beacon.status]).toEqual([200, 200, 200, 303, 204]);
      expect(await raw.text()).toContain("v1");
      if (level === "public") {
        expect(og.status).toBe(200);
        expect(raw.headers.get("cache-control")).toMatch(/^public/);
        return;
      }
      // Kept from every shared cache, never indexed, no card that would show its title.
      expect(og.status).toBe(404);
      expect(raw.headers.get("cache-control")).toBe("private, no-store");
      expect(viewer.headers.get("cache-control")).toMatch(/private|no-store/);
      expect(viewer.headers.get("x-robots-tag")).toMatch(/noindex/);
      const html = await viewer.text();
      expect(html).not.toContain("og:image");
      // The frame carries this viewer's pass, which opens the raw page without the session cookie.
      const frame = /<iframe[^>]+src="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
      expect(frame).toContain("pass=");
      expect((await fetch(frame.replace(app.baseUrl, `http://127.0.0.1:${app.env.PORT}`))).status).toBe(200);
      return;
    }
    if (visitor === "anonymous") {
      // Sent to sign in, and back to the drop.
      for (const answer of [viewer, raw, compare, full]) {
        expect([303, 307]).toContain(answer.status);
        expect(decodeURIComponent(answer.headers.get("location")!)).toContain(`/api/auth/signin?callbackUrl=/p/${slug}`);
      }
    } else {
      for (const answer of [viewer, raw, compare, full]) expect(answer.status).toBe(404);
    }
    expect(og.status).toBe(404);
    expect(beacon.status).toBe(404);
  });

  it("answers someone the drop does not admit exactly as a drop that does not exist", async () => {
    const missing = "zzzzzzzzzzzz";
    for (const path of ["", "/raw", "/compare"]) {
      const refused = await browse(`/p/${drops.restricted}${path}`, sessions.otto);
      const absent = await browse(`/p/${missing}${path}`, sessions.otto);
      expect(refused.status).toBe(absent.status);
      // Next streams its page payload's rows in the order they finish, cut into script chunks wherever a
      // write ended: rejoined and split at row ends, the same rows in any order.
      const chunkBoundary = '"])</script><script>self.__next_f.push([1,"';
      const rows = async (answer: Response) => (await answer.text()).replaceAll(drops.restricted, missing).replaceAll(chunkBoundary, "").split("\\n").sort();
      expect(await rows(refused)).toEqual(await rows(absent));
      for (const name of ["content-type", "cache-control", "x-robots-tag", "content-security-policy"]) expect(refused.headers.get(name), name).toBe(absent.headers.get(name));
    }
  });
});

describe("the API", () => {
  it.each(LEVELS)("%s drop: the owner and editors act on it, a listed viewer may not, anyone else finds nothing (or, public, someone else's)", async (level) => {
    const slug = drops[level];
    const outsider = level === "restricted" ? 404 : 403;
    for (const [name, read, write] of [["olive", 200, 200], ["eddie", 200, 200], ["vera", 403, 403], ["ivy", outsider, outsider]] as const) {
      expect((await json(`/api/drops/${slug}`, tokens[name])).status, `${name} get`).toBe(read);
      expect((await json(`/api/drops/${slug}/versions`, tokens[name])).status, `${name} versions`).toBe(read);
      expect((await json(`/api/drops/${slug}/diff?from=1&to=2`, tokens[name])).status, `${name} diff`).toBe(read);
      expect((await json(`/api/drops/${slug}/stats`, tokens[name])).status, `${name} stats`).toBe(read);
      expect((await json(`/api/drops/${slug}`, tokens[name], { method: "PATCH", body: { description: `by ${name}` } })).status, `${name} patch`).toBe(write);
    }
    // Only the owner deletes, reads the list or changes the access level.
    expect((await json(`/api/drops/${slug}`, tokens.eddie, { method: "DELETE" })).status).toBe(403);
    expect((await json(`/api/drops/${slug}/members`, tokens.eddie)).status).toBe(403);
    const raise = await json(`/api/drops/${slug}`, tokens.eddie, { method: "PATCH", body: { access: "public" } });
    expect(raise.status).toBe(403);
    expect(raise.body.error.message).toContain("access");
  });

  it("an editor publishes a new version", async () => {
    const put = await json(`/api/drops/${drops.restricted}`, tokens.eddie, { method: "PUT", body: { html: page("by eddie") } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.access).toBe("restricted");
    const raw = await browse(`/p/${drops.restricted}/raw?v=${put.body.latest_version}`, sessions.lee);
    expect(await raw.text()).toContain("by eddie");
  });

  it("lists the drops shared with the caller only when asked, and the caller's own as the spec says", async () => {
    const own = await json("/api/drops", tokens.eddie);
    expect(own.body.data).toEqual([]);
    const shared = await json("/api/drops?shared=true", tokens.eddie);
    expect(shared.body.data.map((drop: { slug: string }) => drop.slug).sort()).toEqual(Object.values(drops).sort());
    expect((await json("/api/drops?shared=true", tokens.ivy)).body.data).toEqual([]);
    const mine = await json("/api/drops", tokens.olive);
    expect(mine.body.pagination.total_items).toBe(3);
  });

  it("admits a person invited by login before they had an account, once they sign in", async () => {
    const invited = await json(`/api/drops/${drops.restricted}/members`, tokens.olive, { method: "POST", body: { login: "pat", role: "viewer" } });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ kind: "person", login: "pat", role: "viewer", pending: true });
    const pat = await signInAs(app, "pat");
    expect((await browse(`/p/${drops.restricted}`, pat)).status).toBe(200);
    const list = await json(`/api/drops/${drops.restricted}/members`, tokens.olive);
    expect(list.body.members.find((member: { id: string }) => member.id === invited.body.id)).toMatchObject({ login: "pat", pending: false });
  });

  it("takes away what was given on the very next request: a removed entry, a lowered role, a lowered level", async () => {
    const created = await json("/api/drops", tokens.olive, { method: "POST", body: { title: "short-lived", html: page("x"), access: "restricted" } });
    const slug: string = created.body.slug;
    const entry = await json(`/api/drops/${slug}/members`, tokens.olive, { method: "POST", body: { login: "lee", role: "viewer" } });
    const editor = await json(`/api/drops/${slug}/members`, tokens.olive, { method: "POST", body: { login: "eddie", role: "editor" } });
    expect((await browse(`/p/${slug}`, sessions.lee)).status).toBe(200);
    expect((await json(`/api/drops/${slug}/members/${editor.body.id}`, tokens.olive, { method: "PATCH", body: { role: "viewer" } })).status).toBe(200);
    expect((await json(`/api/drops/${slug}`, tokens.eddie, { method: "PATCH", body: { title: "no" } })).status).toBe(403);
    expect((await json(`/api/drops/${slug}/members/${entry.body.id}`, tokens.olive, { method: "DELETE" })).status).toBe(204);
    expect((await browse(`/p/${slug}`, sessions.lee)).status).toBe(404);
    // Public, then signed-in only: the page cache and shared caches must not keep the public page.
    expect((await json(`/api/drops/${slug}`, tokens.olive, { method: "PATCH", body: { access: "public" } })).status).toBe(200);
    expect((await browse(`/p/${slug}`, null)).status).toBe(200);
    expect((await browse(`/p/${slug}`, null)).status).toBe(200);
    expect((await json(`/api/drops/${slug}`, tokens.olive, { method: "PATCH", body: { access: "signed_in" } })).status).toBe(200);
    for (const path of ["", "/raw"]) {
      const answer = await browse(`/p/${slug}${path}`, null);
      expect([303, 307]).toContain(answer.status);
      expect(answer.headers.get("location")).toContain("/api/auth/signin");
    }
  });

  it("refuses malformed lists, teams and levels with the Error shape", async () => {
    const slug = drops.restricted;
    const cases: [string, string, unknown][] = [
      ["POST", `/api/drops/${slug}/members`, { login: "a", email: "a@b.test", role: "viewer" }],
      ["POST", `/api/drops/${slug}/members`, { login: "a", role: "owner" }],
      ["POST", `/api/drops/${slug}/members`, { login: "olive", role: "viewer" }],
      ["POST", `/api/drops/${slug}/members`, { login: "lee", role: "editor" }],
      ["PATCH", `/api/drops/${slug}`, { access: "everyone" }],
      ["POST", "/api/teams", { name: "" }],
    ];
    for (const [method, path, body] of cases) {
      const refused = await json(path, tokens.olive, { method, body });
      expect(refused.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(refused.body.error.code).toBe("invalid_arg");
    }
    expect((await json("/api/teams/AAAAAAAAAAAAAAAAAAAA", tokens.ivy)).status).toBe(404);
  });
});

describe("comments, MCP and limited tokens", () => {
  async function callTool(token: string, name: string, args: Record<string, unknown>) {
    const response = await fetch(`http://127.0.0.1:${app.env.PORT}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    });
    return ((await response.json()) as { result: { isError?: boolean; structuredContent: any } }).result;
  }

  it("takes comments from the people a drop admits, and from nobody else", async () => {
    const slug = drops.restricted;
    expect((await json(`/api/drops/${slug}`, tokens.olive, { method: "PATCH", body: { comments: "signed_in" } })).status).toBe(200);
    const comment = (session: string | null) =>
      browse(`/p/${slug}/comments`, session, { method: "POST", headers: { "content-type": "application/json", origin: `http://127.0.0.1:${app.env.PORT}` }, body: JSON.stringify({ v: 1, body: "Seen it" }) });
    expect((await comment(sessions.lee)).status).toBe(201);
    expect((await comment(sessions.otto)).status).toBe(404);
    expect((await comment(null)).status).toBe(404);
  });

  it("answers MCP as REST does: the same 404 for a drop the token may not open", async () => {
    const refused = await callTool(tokens.ivy, "get_drop", { slug: drops.restricted });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error.code).toBe("not_found");
    const missing = await callTool(tokens.ivy, "get_drop", { slug: "zzzzzzzzzzzz" });
    expect(refused.structuredContent.error.message.replace(drops.restricted, "zzzzzzzzzzzz")).toBe(missing.structuredContent.error.message);
    const editor = await callTool(tokens.eddie, "get_drop", { slug: drops.restricted });
    expect(editor.structuredContent).toMatchObject({ slug: drops.restricted, access: "restricted" });
    const shared = await callTool(tokens.vera, "list_drops", { shared: true });
    expect(shared.structuredContent.data.map((drop: { slug: string }) => drop.slug).sort()).toEqual(Object.values(drops).sort());
  });

  it("keeps a drop-limited token to its own drops, whatever else its account may edit", async () => {
    const own = await json("/api/drops", tokens.eddie, { method: "POST", body: { title: "eddie's", html: page("e") } });
    const limited = await json("/api/tokens", tokens.eddie, { method: "POST", body: { drops: [own.body.slug] } });
    expect(limited.status, limited.text).toBe(201);
    const refused = await json(`/api/drops/${drops.restricted}`, limited.body.token, { method: "PATCH", body: { title: "escape" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect(refused.body.error.message).toContain(own.body.slug);
  });
});

describe("a passcode and an expiry, to whoever may change them", () => {
  it("opens a locked drop to its owner's and an editor's sessions without the passcode, and to no one else", async () => {
    // Lola signs in and holds a token: one account where sign-in and tokens share accounts (this file's projects).
    const owner = await app.createToken("lola");
    const lola = await signInAs(app, "lola");
    const created = await json("/api/drops", owner, { method: "POST", body: { title: "Salaries", html: page("the bands"), passcode: "sesame" } });
    expect(created.status, created.text).toBe(201);
    const slug: string = created.body.slug;
    expect((await json(`/api/drops/${slug}/members`, owner, { method: "POST", body: { login: "lee", role: "editor" } })).status).toBe(201);
    expect((await json(`/api/drops/${slug}/members`, owner, { method: "POST", body: { login: "tess", role: "viewer" } })).status).toBe(201);

    for (const session of [lola, sessions.lee]) {
      const viewer = await browse(`/p/${slug}`, session);
      expect(viewer.status).toBe(200);
      const html = await viewer.text();
      expect(html).not.toContain("This drop is locked");
      // Both may act on the drop on its dashboard page.
      expect(html).toContain(`href="/dashboard/drops/${slug}"`);
      // Nothing to forget: this browser never unlocked the drop.
      expect(html).not.toContain(`/p/${slug}/lock`);
      // The frame carries the viewer's pass, which opens the raw page where the session cookie does not reach.
      const frame = /<iframe[^>]+src="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
      expect(frame).toContain("pass=");
      expect(frame).not.toContain("unlock=");
      const raw = await fetch(frame.replace(app.baseUrl, `http://127.0.0.1:${app.env.PORT}`));
      expect(raw.status).toBe(200);
      expect(await raw.text()).toContain("the bands");
      const full = await browse(`/p/${slug}/full`, session);
      expect(full.status).toBe(303);
      expect((await fetch(full.headers.get("location")!.replace(app.baseUrl, `http://127.0.0.1:${app.env.PORT}`))).status).toBe(200);
    }
    // A listed viewer, someone else signed in and nobody signed in: the gate, as before.
    for (const session of [sessions.tess, sessions.otto, null]) {
      const viewer = await browse(`/p/${slug}`, session);
      expect(await viewer.text()).toContain("This drop is locked");
      expect((await browse(`/p/${slug}/raw`, session)).status).toBe(403);
    }
  });

  it("offers the owner and an editor of an expired drop its viewer with the expiry form; everyone else, and every other path, 410", async () => {
    const owner = await app.createToken("lola");
    const lola = await signInAs(app, "lola");
    const created = await json("/api/drops", owner, { method: "POST", body: { title: "Launch plan", html: page("the plan"), ttl_seconds: 1 } });
    expect(created.status, created.text).toBe(201);
    const slug: string = created.body.slug;
    expect((await json(`/api/drops/${slug}/members`, owner, { method: "POST", body: { login: "lee", role: "editor" } })).status).toBe(201);
    expect((await json(`/api/drops/${slug}/members`, owner, { method: "POST", body: { login: "tess", role: "viewer" } })).status).toBe(201);
    await expect.poll(async () => (await browse(`/p/${slug}`, null)).status, { timeout: 10_000 }).toBe(410);

    for (const session of [lola, sessions.lee]) {
      const viewer = await browse(`/p/${slug}`, session);
      expect(viewer.status).toBe(200);
      expect(viewer.headers.get("cache-control")).toContain("no-store");
      const html = await viewer.text();
      expect(html).toContain("Launch plan");
      expect(html).toContain('name="then" value="viewer"');
      // Both may act on the drop on its dashboard page.
      expect(html).toContain(`href="/dashboard/drops/${slug}"`);
      expect(html).not.toContain("the plan");
      expect((await browse(`/p/${slug}/raw`, session)).status).toBe(410);
      expect((await browse(`/p/${slug}/compare?from=1&to=1`, session)).status).toBe(410);
    }
    for (const session of [sessions.tess, sessions.otto, null]) {
      const viewer = await browse(`/p/${slug}`, session);
      expect(viewer.status).toBe(410);
      expect(await viewer.text()).not.toContain("Launch plan");
    }
  });
});
