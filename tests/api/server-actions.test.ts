// Server actions are public endpoints: anyone can post to them by hand, with any arguments in place of
// the form the page would send. Such a request must be refused like any bad input, never crash into a 500.
import { request as httpRequest } from "node:http";
import { parse, type DefaultTreeAdapterTypes as T } from "parse5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servesServerless, startApp, type TestApp } from "../helpers/app";
import { serverActionIds, signInAs } from "../helpers/session";

let app: TestApp;
let session: string;
let slug: string;
const actions = serverActionIds();

let token: string;

beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("actions");
  session = await signInAs(app, "actions");
  slug = (await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p>x</p>" } })).body.slug;
});
afterAll(async () => app?.stop());

/**
 * Posts React's encoding of an argument list as a multipart form (the root at field "0"), as Next's
 * client does for a form action; server.ts refuses action bodies that are not forms before Next reads them.
 */
function callAction(path: string, name: string, args: string, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { "next-action": actions[name]!, accept: "text/x-component" };
  if (cookie) headers.cookie = cookie;
  const body = new FormData();
  body.append("0", args);
  return fetch(`http://127.0.0.1:${app.env.PORT}${path}`, { method: "POST", headers, body, redirect: "manual" });
}

// No form at all, and a string where the form belongs.
const ARGUMENTS = ["[]", '["$undefined","not a form"]'];

describe("server actions called without a form", () => {
  const dashboardActions = ["createDropAction", "publishVersionAction", "editDropAction", "setPasscodeAction", "setExpiryAction", "deleteVersionAction", "deleteDropAction", "revokeTokenAction", "setCommentPolicyAction", "setDefaultCommentPolicyAction", "setCommentEmailsAction", "setIndexableAction", "resolveCommentAction", "replyToCommentAction", "deleteCommentAction", "savePatternAction", "deletePatternAction"];

  for (const name of dashboardActions) {
    for (const args of ARGUMENTS) {
      it(`${name} with ${args} is refused without a 5xx`, async () => {
        const response = await callAction(`/dashboard/drops/${slug}`, name, args, session);
        expect(response.status).toBeLessThan(500);
        expect(await response.text()).toContain("The form was not sent as the page sends it");
      });
    }
  }

  for (const name of ["approveDeviceAction", "denyDeviceAction"]) {
    for (const args of ARGUMENTS) {
      it(`${name} with ${args} is refused without a 5xx`, async () => {
        const response = await callAction("/verify", name, args, session);
        expect(response.status).toBeLessThan(500);
      });
    }
  }

  it("logged no error thrown by the actions", () => {
    expect(app.logs()).not.toMatch(/app\/(dashboard|verify)\/actions\.ts|dashboard action failed/);
  });
});

/**
 * Posts a form to an action bound with useActionState, as React's client encodes it: the previous state
 * and a reference to the form at "0", the form's fields under the "_1_" prefix.
 */
function postForm(path: string, name: string, fields: Record<string, string | Blob>, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { "next-action": actions[name]!, accept: "text/x-component", origin: `http://127.0.0.1:${app.env.PORT}` };
  if (cookie) headers.cookie = cookie;
  const body = new FormData();
  for (const [field, value] of Object.entries(fields)) body.append(`_1_${field}`, value);
  body.append("0", JSON.stringify([{ status: "idle", message: "" }, "$K1"]));
  return fetch(`http://127.0.0.1:${app.env.PORT}${path}`, { method: "POST", headers, body, redirect: "manual" });
}

describe("the publishing actions called by hand", () => {
  const HTML_MAX_BYTES = 2_097_152;

  /** Every account's drops: the session's account is not the token's when sign-in goes through the identity provider. */
  async function dropCount(): Promise<number> {
    const [row] = await app.sql<{ count: number | string | bigint }>(`SELECT COUNT(*) AS "count" FROM "Drop"`);
    return Number(row!.count);
  }

  it("a new version aimed at another account's drop is refused as not found, and the drop is unchanged", async () => {
    const otherSession = await signInAs(app, "intruder");
    const response = await postForm(`/dashboard/drops/${slug}`, "publishVersionAction", { slug, html: "<p>hijack</p>", context: "mine now" }, otherSession);
    expect(response.status).toBeLessThan(500);
    expect(await response.text()).toContain("No such drop in your account.");
    expect((await app.api(`/api/drops/${slug}`, { token })).body.latest_version).toBe(1);
  });

  it("a new drop without a session is refused and nothing is created", async () => {
    const before = await dropCount();
    const response = await postForm("/dashboard/new", "createDropAction", { title: "anonymous", html: "<p>x</p>" });
    expect(response.status).toBeLessThan(500);
    expect(await response.text()).toContain("Your session has ended");
    expect(await dropCount()).toBe(before);
  });

  it("a document one byte over the spec's limit is refused in plain words next to the HTML", async () => {
    const before = await dropCount();
    const response = await postForm("/dashboard/new", "createDropAction", { title: "too big", html: "x".repeat(HTML_MAX_BYTES + 1), indexable: "on" }, session);
    const text = await response.text();
    expect(text).toContain("a drop takes at most 2.00 MB");
    expect(text).toContain('"field":"html"');
    // The form comes back as it was sent, the box still ticked.
    expect(text).toContain('"indexable":true');
    expect(await dropCount()).toBe(before);
  });

  it("a non-HTML file is refused, a document under the limit is published with its fields", async () => {
    const refused = await postForm("/dashboard/new", "createDropAction", { title: "binary", html: "", html_file: new File([new Uint8Array([0xff, 0xfe, 0x00])], "image.png") }, session);
    expect(await refused.text()).toContain("“image.png” is not an HTML file.");
    const response = await postForm("/dashboard/new", "createDropAction", { title: "by hand", html: "<p>ok</p>", tags: "project=alpha", context: "published by hand", indexable: "on" }, session);
    expect(response.status).toBeLessThan(400);
    const target = response.headers.get("x-action-redirect") ?? "";
    expect(target).toMatch(/^\/dashboard\/drops\/[^/?]+\?notice=dropCreated/);
    // Read back as the session's owner sees it: the version on the first tab, the tags under Settings.
    const read = async (query: string) => {
      const page = await fetch(`${app.baseUrl}${target.split("?")[0]}${query}`, { headers: { cookie: session } });
      expect(page.status).toBe(200);
      return page.text();
    };
    const html = await read("");
    for (const shown of ["by hand", "published by hand", `data-version="1"`]) expect(html).toContain(shown);
    expect(await read("?tab=settings")).toContain("project=alpha");
    // Ticked on the form, so search engines may index it: its viewer no longer asks them not to.
    const viewer = await fetch(`${app.baseUrl}/p/${target.split("/")[3]!.split("?")[0]}`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get("x-robots-tag")).toBeNull();
  });

  // The custom server's front door reads the declared length; on Vercel the platform's own body limit applies.
  it.skipIf(servesServerless())("a body declared past the server action's size limit is refused with 413 before it is read, and creates nothing", async () => {
    const before = await dropCount();
    // Only the headers and a first bytes are sent: the answer must come without the rest of the body.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        {
          host: "127.0.0.1",
          port: Number(app.env.PORT),
          path: "/dashboard/new",
          method: "POST",
          headers: { "next-action": actions.createDropAction!, cookie: session, "content-type": "multipart/form-data; boundary=x", "content-length": String(HTML_MAX_BYTES * 2) },
        },
        (response) => {
          let body = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk)).on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on("error", reject);
      request.write("--x\r\n");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.message).toContain("a drop's HTML or a pattern's template takes at most 2097152 bytes (2 MiB)");
    expect(await dropCount()).toBe(before);
  });
});

describe("the drop editor's form", () => {
  /** The fields of the page's "Edit HTML" form as a browser without JavaScript would post them (not React's own $ACTION_ fields). */
  async function editorForm(path: string): Promise<Record<string, string>> {
    const page = await fetch(`${app.baseUrl}${path}`, { headers: { cookie: session } });
    expect(page.status).toBe(200);
    const fields: Record<string, string> = {};
    const walk = (node: T.ParentNode, inForm: boolean) => {
      for (const child of node.childNodes) {
        if (!("tagName" in child)) continue;
        const attribute = (name: string) => child.attrs.find((attr) => attr.name === name)?.value;
        const here = inForm || (child.tagName === "form" && attribute("aria-label") === "Edit HTML");
        const name = attribute("name");
        if (here && name && !name.startsWith("$")) {
          if (child.tagName === "input") fields[name] = attribute("value") ?? "";
          if (child.tagName === "textarea") fields[name] = child.childNodes.map((text) => ("value" in text ? text.value : "")).join("");
        }
        walk(child, here);
      }
    };
    walk(parse(await page.text()), false);
    return fields;
  }

  async function latestVersionOf(dropSlug: string): Promise<number> {
    const [row] = await app.sql<{ latest: number | string | bigint }>(`SELECT MAX(v."number") AS "latest" FROM "Version" v JOIN "Drop" d ON v."dropId" = d."id" WHERE d."slug" = '${dropSlug}'`);
    return Number(row!.latest);
  }

  it("holds the latest version's HTML, publishes the edit with its context, and refuses a text whose version was superseded", async () => {
    const original = "<!doctype html>\n<title>Menu</title>\n<p>Soup: tomatoe &amp; <b>bread</b></p>\n";
    const created = await postForm("/dashboard/new", "createDropAction", { title: "Menu", html: original }, session);
    const menu = (created.headers.get("x-action-redirect") ?? "").split("/")[3]!.split("?")[0]!;
    const editor = `/dashboard/drops/${menu}/edit`;

    const opened = await editorForm(editor);
    expect(opened).toEqual({ slug: menu, base_version: "1", html: original, context: "" });
    const fixed = await postForm(editor, "publishVersionAction", { ...opened, html: opened.html!.replace("tomatoe", "tomato"), context: "Fixed a typo." }, session);
    expect(await fixed.text()).toContain("Version 2 published with its context. It is now the latest.");
    expect(await (await fetch(`${app.baseUrl}/p/${menu}/raw`)).text()).toContain("<p>Soup: tomato &amp; <b>bread</b></p>");

    // Opened at version 2; meanwhile a version 3 is uploaded. Publishing the edit would undo it, so nothing is published.
    const stale = await editorForm(editor);
    expect(stale.base_version).toBe("2");
    await postForm(`/dashboard/drops/${menu}`, "publishVersionAction", { slug: menu, html: "<p>Soup: leek</p>" }, session);
    expect(await latestVersionOf(menu)).toBe(3);
    const refused = await postForm(editor, "publishVersionAction", { ...stale, html: stale.html!.replace("bread", "rye bread"), context: "Rye today." }, session);
    const text = await refused.text();
    expect(text).toContain("Version 3 was published after version 2, the one your text is based on, and publishing yours would undo it. Nothing was published: copy your changes, open version 3 in the editor and make them there.");
    // The form comes back as it was sent, still based on version 2.
    expect(text).toContain("rye bread");
    expect(text).toContain('"baseVersion":"2"');
    expect(await latestVersionOf(menu)).toBe(3);
    expect(await (await fetch(`${app.baseUrl}/p/${menu}/raw`)).text()).toContain("<p>Soup: leek</p>");
  });
});

describe("the pattern actions called by hand", () => {
  function markdownOf(name: string, description = "A page made by hand."): string {
    return `---\nname: ${name}\ndescription: ${description}\ntriggers:\n  - make one by hand\n---\n\n# Guide\n\nWhat a good page holds.\n`;
  }

  /** Every account's patterns of that name: the session's account is not a token's when sign-in goes through the identity provider. */
  async function descriptionsOf(name: string): Promise<string[]> {
    return (await app.sql<{ description: string }>(`SELECT "description" FROM "Pattern" WHERE "name" = '${name}'`)).map((row) => row.description);
  }

  it("a pattern is added, then replaced, as the session's account; the page shows it", async () => {
    const added = await postForm("/dashboard/patterns", "savePatternAction", { name: "by-hand", markdown: markdownOf("by-hand"), template: "" }, session);
    expect(added.headers.get("x-action-redirect") ?? "").toMatch(/^\/dashboard\/patterns\?edit=by-hand&notice=patternAdded/);
    const replaced = await postForm("/dashboard/patterns", "savePatternAction", { name: "by-hand", markdown: markdownOf("by-hand", "Replaced by hand."), template: "" }, session);
    expect(replaced.headers.get("x-action-redirect") ?? "").toMatch(/^\/dashboard\/patterns\?edit=by-hand&notice=patternReplaced/);
    expect(await descriptionsOf("by-hand")).toEqual(["Replaced by hand."]);
    const page = await fetch(`${app.baseUrl}/dashboard/patterns?edit=by-hand`, { headers: { cookie: session } });
    const html = await page.text();
    for (const shown of ["Edit by-hand", "Replaced by hand."]) expect(html).toContain(shown);
  });

  it("front matter that names another pattern is refused under the Markdown, with the typed values, and nothing is saved", async () => {
    const response = await postForm("/dashboard/patterns", "savePatternAction", { name: "misnamed", markdown: markdownOf("by-hand") }, session);
    expect(response.status).toBeLessThan(500);
    const text = await response.text();
    expect(text).toContain('"field":"markdown"');
    expect(text).toContain("The front matter names the pattern by-hand, but it is saved as misnamed: make them the same.");
    expect(text).toContain('"name":"misnamed"');
    expect(await descriptionsOf("misnamed")).toEqual([]);
  });

  it("without a session nothing is saved", async () => {
    const response = await postForm("/dashboard/patterns", "savePatternAction", { name: "anonymous", markdown: markdownOf("anonymous") });
    expect(response.status).toBeLessThan(500);
    expect(await response.text()).toContain("Your session has ended");
    expect(await descriptionsOf("anonymous")).toEqual([]);
  });

  it("another account cannot delete yours: it reads as missing, and the pattern stays", async () => {
    const otherSession = await signInAs(app, "intruder");
    const response = await postForm("/dashboard/patterns", "deletePatternAction", { name: "by-hand" }, otherSession);
    expect(response.status).toBeLessThan(500);
    expect(await response.text()).toContain("No such pattern in your account.");
    expect(await descriptionsOf("by-hand")).toEqual(["Replaced by hand."]);
  });

  it("a template at its 2 MiB limit with Markdown at its 64 KiB limit fits under the form's body limit", async () => {
    const head = markdownOf("near-limit");
    const markdown = head + "x".repeat(65_536 - head.length);
    const template = "<!doctype html><p>" + "x".repeat(2_097_152 - 18);
    const response = await postForm("/dashboard/patterns", "savePatternAction", { name: "near-limit", markdown, template }, session);
    expect(response.headers.get("x-action-redirect") ?? "", await response.text()).toMatch(/notice=patternAdded/);
    const [row] = await app.sql<{ template: string }>(`SELECT "template" FROM "Pattern" WHERE "name" = 'near-limit'`);
    expect(row!.template.length).toBe(2_097_152);
  });

  it("the owner deletes it", async () => {
    const response = await postForm("/dashboard/patterns", "deletePatternAction", { name: "by-hand" }, session);
    expect(response.headers.get("x-action-redirect") ?? "").toMatch(/^\/dashboard\/patterns\?notice=patternDeleted/);
    expect(await descriptionsOf("by-hand")).toEqual([]);
  });
});

describe("who may comment on the drops an account creates", () => {
  /** The comment setting of the drop a "New drop" post created, found where its redirect points. */
  async function policyOfCreated(response: Response): Promise<string> {
    const target = response.headers.get("x-action-redirect") ?? "";
    expect(target).toMatch(/^\/dashboard\/drops\/[^/?]+\?notice=dropCreated/);
    const slug = target.split("/")[3]!.split("?")[0]!;
    const [row] = await app.sql<{ commentPolicy: string }>(`SELECT "commentPolicy" FROM "Drop" WHERE "slug" = '${slug}'`);
    return row!.commentPolicy;
  }
  const newDrop = (fields: Record<string, string>) => postForm("/dashboard/new", "createDropAction", { title: "chosen", html: "<p>x</p>", ...fields }, session);

  it("the New drop form's choice wins; without one the account page's default applies, and the form starts at it", async () => {
    expect(await policyOfCreated(await newDrop({}))).toBe("off");
    expect(await policyOfCreated(await newDrop({ comments: "anyone" }))).toBe("anyone");
    const refused = await postForm("/dashboard/account", "setDefaultCommentPolicyAction", { comments: "everyone" }, session);
    expect(await refused.text()).toContain("Choose who may comment.");
    const saved = await postForm("/dashboard/account", "setDefaultCommentPolicyAction", { comments: "signed_in" }, session);
    expect(await saved.text()).toContain("Saved: drops you create from now on without choosing");
    expect(await policyOfCreated(await newDrop({}))).toBe("signed_in");
    expect(await policyOfCreated(await newDrop({ comments: "off" }))).toBe("off");
    for (const page of ["/dashboard/new", "/dashboard/account"]) {
      const html = await (await fetch(`${app.baseUrl}${page}`, { headers: { cookie: session } })).text();
      const checked = (html.match(/<input[^>]*name="comments"[^>]*>/g) ?? []).filter((input) => input.includes('checked=""'));
      expect(checked.map((input) => /value="(\w+)"/.exec(input)?.[1]), page).toEqual(["signed_in"]);
    }
  });

  it("the account page's email setting: an unticked box turns comment emails off, a ticked one on", async () => {
    // The session's own account page (serving as Vercel does, sign-in and tokens are different accounts).
    const settings = async () => {
      const html = await (await fetch(`${app.baseUrl}/dashboard/account`, { headers: { cookie: session } })).text();
      const box = /<input[^>]*name="comment_emails"[^>]*>/.exec(html)?.[0];
      expect(box).toBeDefined();
      return box!.includes('checked=""');
    };
    expect(await (await postForm("/dashboard/account", "setCommentEmailsAction", {}, session)).text()).toContain("Saved: no more comment emails");
    expect(await settings()).toBe(false);
    expect(await (await postForm("/dashboard/account", "setCommentEmailsAction", { comment_emails: "on" }, session)).text()).toContain("Saved: you will get an email about new comments");
    expect(await settings()).toBe(true);
  });
});
