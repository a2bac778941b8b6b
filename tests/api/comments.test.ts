// Comments: who may post through the viewer's form under each policy (guests, accounts, the owner, a
// locked drop with and without unlock), replies from the viewer, anchors to a passage, what the owner
// reads and does through REST, MCP and PUT's resolves, `since` polling, the limits, and who may comment
// on a new drop.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";
import { signInBrowserless, tokenThroughDeviceFlow, type Browserless } from "../helpers/device-flow";
import { PEER_ADDRESS_HEADER } from "../helpers/vercel-edge";

let app: TestApp;
let owner: Browserless;
let token: string;
let reader: Browserless;
let clients = 0;
const clock = createTestClock();

beforeAll(async () => {
  // Guests are told apart by address: behind a trusted proxy here, behind the edge when serverless.
  app = await startApp({ env: { TRUST_PROXY: "true", HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  owner = await signInBrowserless(app, "comment-owner");
  token = await tokenThroughDeviceFlow(app, owner);
  reader = await signInBrowserless(app, "comment-reader");
});
afterAll(async () => app?.stop());

async function createDrop(body: Record<string, unknown> = {}, comments?: string): Promise<string> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Reviewed", html: "<p>v1</p>", ...body } });
  expect(created.status).toBe(201);
  if (comments) expect((await app.api(`/api/drops/${created.body.slug}`, { method: "PATCH", token, body: { comments } })).body.comments).toBe(comments);
  return created.body.slug;
}

/** Each test posts from an address of its own, so the per-client limit of one never spends another's. */
function newClient(): string {
  clients += 1;
  return `203.0.113.${clients}`;
}

type Post = { body?: string; name?: string; quote?: string; anchor?: Record<string, unknown>; v?: number; reply_to?: string };

/** The viewer's form as its script sends it (JSON), from `client`, with `cookie` (a session or an unlock). */
function post(slug: string, fields: Post, options: { cookie?: string; client?: string; origin?: string } = {}) {
  const client = options.client ?? newClient();
  return fetch(`${app.baseUrl}/p/${slug}/comments`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: options.origin ?? new URL(app.baseUrl).origin,
      "x-forwarded-for": client,
      [PEER_ADDRESS_HEADER]: client,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: JSON.stringify({ v: 1, body: "A remark", ...fields }),
    redirect: "manual",
  });
}

async function posted(slug: string, fields: Post, options: Parameters<typeof post>[2] = {}) {
  const response = await post(slug, fields, options);
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

describe("who may post", () => {
  it("refuses every post while comments are off, the default", async () => {
    const slug = await createDrop();
    expect((await app.api(`/api/drops/${slug}`, { token })).body).not.toHaveProperty("comments");
    const refused = await post(slug, { name: "Guest" });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden");
    const invalid = await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { comments: "everyone" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("invalid_arg");
  });

  it("takes guests under a name with 'anyone', never under the owner's name", async () => {
    const slug = await createDrop({}, "anyone");
    const comment = await posted(slug, { name: "Ada", body: "Line 2 is wrong", quote: "2 + 2 = 5" });
    expect(comment).toMatchObject({ version: 1, body: "Line 2 is wrong", quote: "2 + 2 = 5", author: { name: "Ada", kind: "guest" } });
    expect(comment).not.toHaveProperty("resolved_at");
    const nameless = await post(slug, {});
    expect(nameless.status).toBe(400);
    expect((await nameless.json()).error.message).toContain("name");
    const imitation = await post(slug, { name: "Comment-Owner" });
    expect(imitation.status).toBe(400);
    expect((await imitation.json()).error.message).toContain("owner");
  });

  it("stores a guest's name as it reads, and refuses one that reads as the owner's login", async () => {
    const slug = await createDrop({}, "anyone");
    // Fullwidth letters fold, a zero-width joiner and a right-to-left mark go, spaces collapse.
    expect((await posted(slug, { name: "\u200fＡｄａ\u200d  \u3000Lovelace" })).author).toEqual({ name: "Ada Lovelace", kind: "guest" });
    const lookalikes = [
      "comment-owner\u200b", // zero-width space
      "comment-owner\u2060", // word joiner
      "\u202ecomment-owner", // right-to-left override
      "ｃomment-owner", // fullwidth c
      "c\u043emment-owner", // Cyrillic о
      "comment\u2010owner", // hyphen U+2010
      "cornment-owner", // rn for m
      "COMMENT-0WNER", // capitals, a zero for the O
    ];
    for (const name of lookalikes) {
      const refused = await post(slug, { name });
      const body = await refused.json();
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect(body.error, JSON.stringify(name)).toEqual({ code: "invalid_arg", message: "That name is, or looks like, the drop owner's; choose another.", details: { field: "name", reason: "owner_name" } });
    }
    const invisible = await post(slug, { name: "\u200b\u2060\u200e" });
    expect(invisible.status).toBe(400);
    expect((await invisible.json()).error.message).toBe("Give a name to comment as a guest.");
    // Without JavaScript, the form says the same.
    const form = await fetch(`${app.baseUrl}/p/${slug}/comments`, {
      method: "POST",
      body: new URLSearchParams({ body: "Hi", name: "cоmment-owner", v: "1" }),
      redirect: "manual",
      headers: { "x-forwarded-for": newClient() },
    });
    expect(form.headers.get("location")).toBe(`/p/${slug}?comment_error=owner_name&v=1#comments`);
    const list = await app.api(`/api/drops/${slug}/comments`, { token });
    expect(list.body.data.map((comment: { author: { name: string } }) => comment.author.name)).toEqual(["Ada Lovelace"]);
  });

  it("signs accounts and the owner by their session, and asks guests to sign in with 'signed_in'", async () => {
    const slug = await createDrop({}, "signed_in");
    const guest = await post(slug, { name: "Guest" });
    expect(guest.status).toBe(401);
    expect((await posted(slug, { body: "From a reader" }, { cookie: reader.jar.header() })).author).toEqual({ name: "comment-reader", kind: "account" });
    // A name sent along does not replace who the session says.
    expect((await posted(slug, { body: "From the owner", name: "Someone" }, { cookie: owner.jar.header() })).author).toEqual({ name: "comment-owner", kind: "owner" });
  });

  it("takes comments on a locked drop only from a browser that unlocked it", async () => {
    const slug = await createDrop({ passcode: "sesame" }, "anyone");
    expect((await post(slug, { name: "Guest" })).status).toBe(403);
    const unlocked = await fetch(`${app.baseUrl}/p/${slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "sesame" }), redirect: "manual" });
    const cookie = unlocked.headers.get("set-cookie")!.split(";")[0]!;
    expect((await posted(slug, { name: "Guest" }, { cookie })).author.kind).toBe("guest");
  });

  it("refuses posts from another site's page, unknown versions, and bodies that are too long or not text", async () => {
    const slug = await createDrop({}, "anyone");
    expect((await post(slug, { name: "Guest" }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(slug, { name: "Guest", v: 7 })).status).toBe(404);
    for (const fields of [{ body: "x".repeat(4001) }, { body: "   " }, { body: "bell \u0007" }, { quote: Array.from({ length: 21 }, () => "line").join("\n") }, { name: "two\nlines" }]) {
      const refused = await post(slug, { name: "Guest", ...fields });
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect((await refused.json()).error.code).toBe("invalid_arg");
    }
    expect((await posted(slug, { name: "Guest", body: "x".repeat(4000) })).body).toHaveLength(4000);
  });

  it("answers a form post with a redirect back to the thread", async () => {
    const slug = await createDrop({}, "anyone");
    const form = (fields: Record<string, string>) =>
      fetch(`${app.baseUrl}/p/${slug}/comments`, { method: "POST", body: new URLSearchParams(fields), redirect: "manual", headers: { "x-forwarded-for": newClient() } });
    const ok = await form({ body: "Looks good", name: "Form guest", v: "1" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe(`/p/${slug}?comment=posted&v=1#comments`);
    const bad = await form({ body: "", name: "Form guest", v: "1" });
    expect(bad.headers.get("location")).toBe(`/p/${slug}?comment_error=invalid&v=1#comments`);
    const list = await app.api(`/api/drops/${slug}/comments`, { token });
    expect(list.body.data.map((comment: { body: string }) => comment.body)).toEqual(["Looks good"]);
  });

  it("takes a reply from a comment's own form, on the version of the comment it answers", async () => {
    const slug = await createDrop({}, "anyone");
    const remark = await posted(slug, { name: "Ada", body: "On version one" });
    await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>v2</p>" } });
    // Without JavaScript, from the page showing version 2: back to that page, where the reply is shown.
    const form = await fetch(`${app.baseUrl}/p/${slug}/comments`, {
      method: "POST",
      body: new URLSearchParams({ body: "Agreed", name: "Grace", v: "2", reply_to: remark.id }),
      redirect: "manual",
      headers: { "x-forwarded-for": newClient() },
    });
    expect(form.headers.get("location")).toBe(`/p/${slug}?comment=posted&v=2#comments`);
    const [, reply] = (await app.api(`/api/drops/${slug}/comments`, { token })).body.data;
    expect(reply).toMatchObject({ body: "Agreed", version: 1, reply_to: remark.id, author: { name: "Grace", kind: "guest" } });
    const unknown = await post(slug, { name: "Grace", reply_to: "Z".repeat(20), v: 2 });
    expect(unknown.status).toBe(404);
  });

  it("limits guests per address", async () => {
    // A guest's limit counts in fixed 10-minute windows: start one, so none closes between the posts.
    clock.startWindow(10 * MINUTE_MS);
    const slug = await createDrop({}, "anyone");
    const client = newClient();
    for (let i = 0; i < 5; i++) await posted(slug, { name: "Chatty", body: `remark ${i}` }, { client });
    const limited = await post(slug, { name: "Chatty" }, { client });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe("rate_limited");
    await posted(slug, { name: "Someone else" });
  });

  it("refuses comments on an expired drop", async () => {
    const slug = await createDrop({ ttl_seconds: 1 }, "anyone");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await post(slug, { name: "Late" })).status).toBe(404);
  });
});

describe("the viewer's thread", () => {
  it("shows 20 comments a page, with links to the rest, and sends a form post back to its comment's page", async () => {
    const slug = await createDrop({}, "anyone");
    const long = "x".repeat(3_990);
    for (let n = 0; n < 25; n++) await posted(slug, { name: `Guest ${n}`, body: `remark ${n} ${long}` });
    const viewer = async (query: string) => (await (await fetch(`${app.baseUrl}/p/${slug}${query}`)).text()).replaceAll("<!-- -->", "");
    const remarks = (html: string) => [...html.matchAll(/<p class="[^"]*">remark (\d+) /g)].map((match) => Number(match[1]));

    const first = await viewer("");
    expect(first).toContain("Comments <span");
    expect(first).toContain("(25)");
    expect(remarks(first)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(first).toContain("Comments 1–20 of 25");
    expect(first).toContain(`href="/p/${slug}?v=1&amp;comments_page=2#comments" rel="next"`);
    const second = await viewer("?v=1&comments_page=2");
    expect(remarks(second)).toEqual([20, 21, 22, 23, 24]);
    expect(second).toContain("Comments 21–25 of 25");
    expect(second).toContain(`href="/p/${slug}?v=1#comments" rel="prev"`);
    // A page past the last is the last; anything but a page number is the first.
    expect(remarks(await viewer("?comments_page=9"))).toEqual([20, 21, 22, 23, 24]);
    expect(remarks(await viewer("?comments_page=x")).length).toBe(20);

    const client = newClient();
    const form = await fetch(`${app.baseUrl}/p/${slug}/comments`, {
      method: "POST",
      body: new URLSearchParams({ body: "remark 25", name: "Form guest", v: "1" }),
      redirect: "manual",
      headers: { "x-forwarded-for": client, [PEER_ADDRESS_HEADER]: client },
    });
    expect(form.headers.get("location")).toBe(`/p/${slug}?comment=posted&comments_page=2&v=1#comments`);

    // The owner's page of the drop shows the 26 a page at a time too, with a pager.
    const dashboard = async (query: string) =>
      (await (await fetch(`${app.baseUrl}/dashboard/drops/${slug}${query}`, { headers: { cookie: owner.jar.header() } })).text()).replaceAll("<!-- -->", "");
    const firstPage = await dashboard("?tab=comments");
    expect(firstPage).toContain("Comments 1–25 of 26");
    expect(firstPage).toContain(`href="/dashboard/drops/${slug}?tab=comments&amp;comments_page=2#comments-heading" rel="next"`);
    for (const query of ["?tab=comments&comments_page=2", "?tab=comments&comments_page=9"]) {
      const lastPage = await dashboard(query);
      expect(lastPage, query).toContain("Comments 26–26 of 26");
      expect(lastPage, query).toContain(`href="/dashboard/drops/${slug}?tab=comments#comments-heading" rel="prev"`);
      expect(lastPage, query).toContain("remark 25");
    }
  });
});

describe("the owner's side", () => {
  it("lists by status, version and since, paginated, oldest first", async () => {
    const slug = await createDrop({}, "anyone");
    const first = await posted(slug, { name: "A", body: "one" });
    await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>v2</p>" } });
    const second = await posted(slug, { name: "B", body: "two", v: 2 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const third = await posted(slug, { name: "C", body: "three", v: 2 });
    const list = async (query = "") => (await app.api(`/api/drops/${slug}/comments${query}`, { token })).body;

    expect((await list()).data.map((comment: { id: string }) => comment.id)).toEqual([first.id, second.id, third.id]);
    expect((await list("?version=2")).data.map((comment: { id: string }) => comment.id)).toEqual([second.id, third.id]);
    expect((await list(`?since=${second.created_at}`)).data.map((comment: { id: string }) => comment.id)).toEqual([third.id]);
    expect((await list(`?since=${third.created_at}`)).data).toEqual([]);
    const paged = await list("?pageSize=2&page=2");
    expect(paged.data.map((comment: { id: string }) => comment.id)).toEqual([third.id]);
    expect(paged.pagination).toEqual({ page: 2, page_size: 2, total_items: 3, total_pages: 2 });

    await app.api(`/api/drops/${slug}/comments/${first.id}`, { method: "PATCH", token, body: { resolved: true } });
    expect((await list("?status=open")).data.map((comment: { id: string }) => comment.id)).toEqual([second.id, third.id]);
    expect((await list("?status=resolved")).data.map((comment: { id: string }) => comment.id)).toEqual([first.id]);
    for (const query of ["?status=closed", "?since=yesterday", "?version=0", "?pageSize=500", "?sort=asc"]) {
      const refused = await app.api(`/api/drops/${slug}/comments${query}`, { token });
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code, query).toBe("invalid_arg");
    }
  });

  it("replies as the owner, resolves and reopens, and deletes any comment", async () => {
    const slug = await createDrop({}, "anyone");
    const remark = await posted(slug, { name: "Guest", body: "Typo in the title" });
    const reply = await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "Thanks, fixing", reply_to: remark.id } });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ version: 1, body: "Thanks, fixing", reply_to: remark.id, author: { name: "comment-owner", kind: "owner" } });
    expect((await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "x", reply_to: "A".repeat(20) } })).status).toBe(404);

    const resolved = await app.api(`/api/drops/${slug}/comments/${remark.id}`, { method: "PATCH", token, body: { resolved: true } });
    expect(resolved.body.resolved_at).toEqual(expect.any(Number));
    const reopened = await app.api(`/api/drops/${slug}/comments/${remark.id}`, { method: "PATCH", token, body: { resolved: false } });
    expect(reopened.body).not.toHaveProperty("resolved_at");
    expect((await app.api(`/api/drops/${slug}/comments/${remark.id}`, { method: "PATCH", token, body: { resolved: "yes" } })).status).toBe(400);

    expect((await app.api(`/api/drops/${slug}/comments/${remark.id}`, { method: "DELETE", token })).status).toBe(204);
    expect((await app.api(`/api/drops/${slug}/comments/${remark.id}`, { method: "DELETE", token })).status).toBe(404);
    expect((await app.api(`/api/drops/${slug}/comments/not-an-id`, { method: "DELETE", token })).status).toBe(400);
    const left = (await app.api(`/api/drops/${slug}/comments`, { token })).body.data;
    expect(left).toEqual([expect.objectContaining({ id: reply.body.id })]);
    expect(left[0]).not.toHaveProperty("reply_to");
  });

  it("resolves the comments a PUT names, with a reply naming the new version, or writes nothing", async () => {
    const slug = await createDrop({}, "anyone");
    const a = await posted(slug, { name: "A", body: "first" });
    const b = await posted(slug, { name: "B", body: "second" });
    const c = await posted(slug, { name: "C", body: "third" });
    const unknown = await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>v2</p>", resolves: [a.id, "B".repeat(20)] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "invalid_arg", details: { unknown: ["B".repeat(20)] } });
    expect((await app.api(`/api/drops/${slug}`, { token })).body.latest_version).toBe(1);

    const put = await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>v2</p>", resolves: [a.id, b.id] } });
    expect(put.status).toBe(200);
    expect(put.body.latest_version).toBe(2);
    const open = (await app.api(`/api/drops/${slug}/comments?status=open`, { token })).body.data;
    expect(open.map((comment: { id: string }) => comment.id)).toEqual([c.id]);
    const replies = (await app.api(`/api/drops/${slug}/comments?version=2`, { token })).body.data;
    // Both replies are stamped in the same moment: their order between them is not defined.
    expect(replies).toHaveLength(2);
    expect(replies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ version: 2, body: "Resolved in version 2.", reply_to: a.id, author: { name: "comment-owner", kind: "owner" } }),
        expect.objectContaining({ version: 2, body: "Resolved in version 2.", reply_to: b.id, author: { name: "comment-owner", kind: "owner" } }),
      ]),
    );
  });

  it("shows another account nothing and lets it change nothing", async () => {
    const slug = await createDrop({}, "anyone");
    const remark = await posted(slug, { name: "Guest" });
    const stranger = await app.createToken("comment-stranger");
    for (const [method, path, body] of [
      ["GET", `/api/drops/${slug}/comments`, undefined],
      ["POST", `/api/drops/${slug}/comments`, { body: "mine now" }],
      ["PATCH", `/api/drops/${slug}/comments/${remark.id}`, { resolved: true }],
      ["DELETE", `/api/drops/${slug}/comments/${remark.id}`, undefined],
    ] as const) {
      const refused = await app.api(path, { method, token: stranger, ...(body ? { body } : {}) });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.error.code).toBe("forbidden");
    }
    expect((await app.api(`/api/drops/${slug}/comments`)).status).toBe(401);
    expect((await app.api(`/api/drops/${slug}/comments`, { token })).body.data).toEqual([expect.objectContaining({ id: remark.id })]);
  });
});

describe("anchors", () => {
  const EXACT_MAX = 500;
  const CONTEXT_MAX = 64;

  it("keeps a passage's selector as it was sent, from the viewer's form and the owner, and lists it", async () => {
    const slug = await createDrop({}, "anyone");
    // Characters, not UTF-16 units: 500 emoji and 64 accented letters are at the limits.
    const atLimits = { exact: "😀".repeat(EXACT_MAX), prefix: "é".repeat(CONTEXT_MAX), suffix: "\n  tail" };
    const guest = await posted(slug, { name: "Ada", body: "This part", anchor: atLimits });
    expect(guest.anchor).toEqual(atLimits);
    // Left out stays out; empty stays empty.
    const owner = await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "Mine", anchor: { exact: "Revenue", prefix: "" } } });
    expect(owner.status, owner.text).toBe(201);
    expect(owner.body.anchor).toEqual({ exact: "Revenue", prefix: "" });
    const plain = await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "No passage" } });
    expect(plain.body).not.toHaveProperty("anchor");
    const listed = (await app.api(`/api/drops/${slug}/comments`, { token })).body.data;
    expect(listed.map((comment: { anchor?: unknown }) => comment.anchor)).toEqual([atLimits, { exact: "Revenue", prefix: "" }, undefined]);
  });

  it("refuses each field past its limit, and an anchor that is not one, with 400 invalid_arg", async () => {
    const slug = await createDrop({}, "anyone");
    const refusals: [Record<string, unknown>, string][] = [
      [{ exact: "x".repeat(EXACT_MAX + 1) }, "anchor.exact"],
      [{ exact: "x", prefix: "p".repeat(CONTEXT_MAX + 1) }, "anchor.prefix"],
      [{ exact: "x", suffix: "s".repeat(CONTEXT_MAX + 1) }, "anchor.suffix"],
      [{ exact: "   " }, "anchor.exact"],
      [{ exact: "x", note: "extra" }, "anchor.note"],
    ];
    for (const [anchor, field] of refusals) {
      const refused = await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "Too much", anchor } });
      expect(refused.status, field).toBe(400);
      expect(refused.body.error.code, field).toBe("invalid_arg");
      expect(refused.body.error.details.fields.map((entry: { field: string }) => entry.field), field).toEqual([field]);
    }
    // The viewer's form, whatever the frame reported, holds to the same rules.
    const fromViewer = await post(slug, { name: "Ada", anchor: { exact: "x".repeat(EXACT_MAX + 1) } });
    expect(fromViewer.status).toBe(400);
    expect((await fromViewer.json()).error.code).toBe("invalid_arg");
    expect((await app.api(`/api/drops/${slug}/comments`, { token })).body.data).toEqual([]);
  });
});

describe("who may comment on a new drop", () => {
  it("is off unless the creator or the account's default says otherwise", async () => {
    const login = "comment-defaults";
    const creator = await app.createToken(login);
    const create = (body: Record<string, unknown> = {}) => app.api("/api/drops", { method: "POST", token: creator, body: { title: "New", html: "<p>x</p>", ...body } });
    // A client written against the spec sees the spec's drop.
    expect((await create()).body).not.toHaveProperty("comments");
    expect((await create({ comments: "anyone" })).body.comments).toBe("anyone");
    const refused = await create({ comments: "everyone" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_arg");
    // The account's default, as the dashboard's account page stores it.
    await app.sql(`UPDATE "User" SET "defaultCommentPolicy" = 'signed_in' WHERE "login" = '${login}'`);
    expect((await create()).body.comments).toBe("signed_in");
    expect((await create({ comments: "off" })).body).not.toHaveProperty("comments");
  });
});

describe("the MCP tools", () => {
  it("list, reply to and resolve comments with the REST results", async () => {
    const slug = await createDrop({}, "anyone");
    const remark = await posted(slug, { name: "Guest", body: "Please add totals" });
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", `http://127.0.0.1:${app.env.PORT}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const client = new Client({ name: "htmldrop-comment-tests", version: "1.0.0" });
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
    try {
      const listed = await call("list_comments", { slug, status: "open" });
      expect(listed.structuredContent).toEqual((await app.api(`/api/drops/${slug}/comments?status=open`, { token })).body);
      const anchor = { exact: "Please add totals", prefix: "Guest: " };
      const reply = await call("reply_to_comment", { slug, body: "Added in v2", reply_to: remark.id, anchor });
      expect(reply.structuredContent).toMatchObject({ reply_to: remark.id, author: { kind: "owner" }, anchor });
      const tooLong = await call("reply_to_comment", { slug, body: "x", anchor: { exact: "x", suffix: "s".repeat(65) } });
      expect(tooLong.isError).toBe(true);
      expect(tooLong.structuredContent).toMatchObject({ error: { code: "invalid_arg", details: { fields: [{ field: "anchor.suffix" }] } } });
      const resolved = await call("resolve_comment", { slug, id: remark.id });
      expect(resolved.structuredContent).toMatchObject({ id: remark.id, resolved_at: expect.any(Number) });
      const refused = await call("resolve_comment", { slug, id: "C".repeat(20) });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ error: { code: "not_found" } });
      // The owner's reply is an answer, not something waiting for one.
      expect((await call("list_comments", { slug, status: "open" })).structuredContent).toMatchObject({ data: [] });
      expect((await call("list_comments", { slug, status: "all" })).structuredContent).toMatchObject({ data: [expect.objectContaining({ id: remark.id }), expect.objectContaining({ id: (reply.structuredContent as { id: string }).id, anchor })] });
    } finally {
      await client.close();
    }
  });
});
