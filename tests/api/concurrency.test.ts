import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("racer");
});
afterAll(async () => app?.stop());

async function newDrop() {
  return (await app.api("/api/drops", { method: "POST", token, body: { title: "race", html: "<p>0</p>" } })).body;
}

describe("concurrent writes", () => {
  it("24 simultaneous PUTs on one drop leave gapless, unique versions and lose nothing", async () => {
    const drop = await newDrop();
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: `<p>${i}</p>`, context: `writer ${i}` } })),
    );
    const succeeded = results.filter((res) => res.status === 200);
    const conflicted = results.filter((res) => res.status === 409);
    expect(succeeded.length + conflicted.length).toBe(24);
    for (const res of conflicted) expect(res.body.error.code).toBe("version_conflict");

    const minted = succeeded.map((res) => res.body.latest_version as number).sort((a, b) => a - b);
    expect(new Set(minted).size).toBe(minted.length);

    const versions = (await app.api(`/api/drops/${drop.slug}/versions`, { token })).body.map((v: { version: number }) => v.version);
    expect(versions).toEqual(Array.from({ length: succeeded.length + 1 }, (_, i) => i + 1));
    expect(minted).toEqual(versions.slice(1));

    // Each successful writer's own content sits under the number it was told.
    const contexts = await Promise.all(succeeded.map((res) => app.api(`/api/drops/${drop.slug}/v/${res.body.latest_version}`, { token })));
    expect(new Set(contexts.map((res) => res.body.context)).size).toBe(succeeded.length);
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.latest_version).toBe(versions.at(-1));
  });

  it("If-Match refuses an edit based on a stale head, and exactly one of racing editors wins", async () => {
    const drop = await newDrop();
    const ok = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, headers: { "if-match": '"1"' }, body: { html: "<p>a</p>" } });
    expect(ok.status).toBe(200);
    const stale = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, headers: { "if-match": '"1"' }, body: { html: "<p>b</p>" } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "version_conflict", details: { latest_version: 2 } });

    const racers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, headers: { "if-match": '"2"' }, body: { html: `<p>${i}</p>` } })),
    );
    expect(racers.filter((res) => res.status === 200)).toHaveLength(1);
    expect(racers.filter((res) => res.status === 409 && res.body.error.details.latest_version === 3)).toHaveLength(9);
    expect((await app.api(`/api/drops/${drop.slug}/versions`, { token })).body).toHaveLength(3);

    const malformed = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, headers: { "if-match": "*" }, body: { html: "<p/>" } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe("invalid_arg");
  });

  it("an Idempotency-Key replays the first response instead of creating a second drop", async () => {
    const body = { title: "once", html: "<p>once</p>" };
    const headers = { "idempotency-key": `key-${Math.random()}` };
    const first = await app.api("/api/drops", { method: "POST", token, headers, body });
    const again = await app.api("/api/drops", { method: "POST", token, headers, body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");

    const racing = { "idempotency-key": `race-${Math.random()}` };
    const burst = await Promise.all(Array.from({ length: 6 }, () => app.api("/api/drops", { method: "POST", token, headers: racing, body })));
    expect(new Set(burst.map((res) => res.status))).toEqual(new Set([201]));
    expect(new Set(burst.map((res) => res.body.slug)).size).toBe(1);

    const other = await app.createToken("stranger");
    const theirs = await app.api("/api/drops", { method: "POST", token: other, headers, body });
    expect(theirs.body.slug).not.toBe(first.body.slug);

    const list = await app.api("/api/drops?pageSize=200", { token });
    expect(list.body.data.filter((d: { title: string }) => d.title === "once")).toHaveLength(2);
  });

  it("refuses an Idempotency-Key reused for a different request instead of replaying it", async () => {
    const headers = { "idempotency-key": `reuse-${Math.random()}` };
    const body = { title: "report", html: "<p>v1</p>", metadata: { a: "1", b: "2" } };
    const first = await app.api("/api/drops", { method: "POST", token, headers, body });
    expect(first.status).toBe(201);
    // The same request in another key order of metadata is still the same request.
    const reordered = await app.api("/api/drops", { method: "POST", token, headers, body: { ...body, metadata: { b: "2", a: "1" } } });
    expect(reordered.status).toBe(201);
    expect(reordered.body.slug).toBe(first.body.slug);

    const changed = await app.api("/api/drops", { method: "POST", token, headers, body: { ...body, html: "<p>v2</p>" } });
    expect(changed.status).toBe(400);
    expect(changed.body.error).toMatchObject({ code: "invalid_arg", details: { fields: [{ field: "Idempotency-Key" }] } });
    const list = await app.api("/api/drops?pageSize=200", { token });
    expect(list.body.data.filter((d: { title: string }) => d.title === "report")).toHaveLength(1);
  });
});

describe("concurrent delete and re-upload of the same bytes", () => {
  let roomy: TestApp;
  let roomyToken: string;
  beforeAll(async () => {
    roomy = await startApp({ env: { LIMIT_WRITES_PER_MINUTE: "100000", LIMIT_WRITES_PER_DAY: "100000" } });
    roomyToken = await roomy.createToken("recycler");
  });
  afterAll(async () => roomy?.stop());

  it("never answers 5xx, keeps every referenced blob and leaves no orphan", async () => {
    const keeper = (await roomy.api("/api/drops", { method: "POST", token: roomyToken, body: { title: "keeper", html: "<p>start</p>" } })).body;
    const failures: string[] = [];
    for (let round = 0; round < 60; round++) {
      const html = `<p>shared bytes ${round}</p>`;
      const doomed = await roomy.api("/api/drops", { method: "POST", token: roomyToken, body: { title: `doomed ${round}`, html } });
      expect(doomed.status).toBe(201);
      // The last reference to a blob goes away while another write references the same bytes.
      const [deleted, reuploaded] = await Promise.all([
        roomy.api(`/api/drops/${doomed.body.slug}`, { method: "DELETE", token: roomyToken }),
        roomy.api(`/api/drops/${keeper.slug}`, { method: "PUT", token: roomyToken, body: { html } }),
      ]);
      if (deleted.status !== 204) failures.push(`round ${round}: delete ${deleted.status} ${deleted.text}`);
      if (reuploaded.status !== 200) failures.push(`round ${round}: put ${reuploaded.status} ${reuploaded.text}`);
    }
    expect(failures).toEqual([]);

    const [count] = await roomy.sql<{ orphans: number }>(`SELECT COUNT(*) AS orphans FROM "Blob" b WHERE NOT EXISTS (SELECT 1 FROM "Version" v WHERE v."blobSha" = b."sha256")`);
    expect(Number(count!.orphans)).toBe(0);
    const raw = await fetch(`${roomy.baseUrl}/p/${keeper.slug}/raw`);
    expect(await raw.text()).toContain("<p>shared bytes 59</p>");
  });

  it("replaces tags under concurrent PATCHes and PUTs without 5xx, leaving one writer's map whole", async () => {
    const drop = (await roomy.api("/api/drops", { method: "POST", token: roomyToken, body: { title: "tags", html: "<p>t</p>" } })).body;
    const failures: string[] = [];
    for (let round = 0; round < 10; round++) {
      const writes = Array.from({ length: 8 }, (_, writer) => {
        const metadata = { shared: `r${round}w${writer}`, [`own${writer}`]: "x" };
        return writer % 4 === 3
          ? roomy.api(`/api/drops/${drop.slug}`, { method: "PUT", token: roomyToken, body: { html: `<p>${round}.${writer}</p>`, metadata } })
          : roomy.api(`/api/drops/${drop.slug}`, { method: "PATCH", token: roomyToken, body: { metadata } });
      });
      for (const res of await Promise.all(writes)) if (res.status !== 200) failures.push(`round ${round}: ${res.status} ${res.text}`);
      const { metadata } = (await roomy.api(`/api/drops/${drop.slug}`, { token: roomyToken })).body as { metadata: Record<string, string> };
      const writer = /^r\d+w(\d)$/.exec(metadata.shared ?? "")?.[1];
      expect(metadata).toEqual({ shared: `r${round}w${writer}`, [`own${writer}`]: "x" });
    }
    expect(failures).toEqual([]);
  });
});
