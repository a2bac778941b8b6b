// What the bench publishes before it measures, through the service's own API.
import { type TestApp, testDb } from "../../tests/helpers/app";

export function fiftyKilobytes(): string {
  const rows: string[] = [];
  for (let i = 0; rows.join("").length < 50_000; i++) rows.push(`<tr><td>${i}</td><td>row ${i} of the benchmark table</td><td>${(i * 7919) % 1000}</td></tr>\n`);
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>bench</title></head><body><table>${rows.join("")}</table></body></html>`;
}

/** A 2 MB page; with a viewport tag in its head (as agents write them) or without (the costlier case). */
export function twoMegabytes(viewport: boolean): string {
  const row = "<tr><td>cell &amp; more</td><td><!-- </head> --></td><td><script>let x = '</head>';</script></td></tr>\n";
  const meta = viewport ? '<meta name="viewport" content="width=device-width">' : "";
  const shell = `<!DOCTYPE html><html><head>${meta}<title>large</title></head><body><table></table></body></html>`;
  return shell.replace("<table>", `<table>${row.repeat(Math.floor((2_097_152 - shell.length) / row.length))}`);
}

let writes = 0;

/** A 4 KB page for the write targets, different every time: each write stores a new blob, as an edit does. */
export function writeHtml(): string {
  return `<!DOCTYPE html><title>write</title>${"<p>a paragraph of the benchmark drop</p>\n".repeat(100)}<!-- write ${writes++} -->`;
}

/** The three metadata pairs every list request filters by. */
export const LIST_FILTER = { project: "bench", kind: "weekly-report", batch: "0" };
/** Drops of each list account that match LIST_FILTER: both accounts' lists answer the same number of drops. */
const LIST_MATCHES = 5;
const SEED_CONCURRENCY = 8;

type Drop = { slug: string; raw_url: string };

async function createDrop(app: TestApp, token: string, body: Record<string, unknown>): Promise<Drop> {
  const created = await app.api<Drop>("/api/drops", { method: "POST", token, body });
  if (created.status !== 201) throw new Error(`could not create a drop: ${created.status} ${created.text}`);
  return created.body;
}

/** An account with `count` drops, LIST_MATCHES of which match LIST_FILTER (the rest differ in `batch` only). */
async function listAccount(app: TestApp, login: string, count: number): Promise<string> {
  const token = await app.createToken(login);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const metadata = { ...LIST_FILTER, batch: String(i % (count / LIST_MATCHES)) };
      await createDrop(app, token, { title: `list ${i}`, html: `<!DOCTYPE html><title>drop ${i}</title><p>drop ${i} of ${login}</p>`, metadata });
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  return token;
}

/**
 * PostgreSQL's autovacuum analyzes freshly filled tables within a minute or so; the bench measures
 * right after seeding (and a server may run with autovacuum off), so it analyzes them itself, as
 * `npm run restore` does, and measures the plans a settled server runs. (The list's metadata filter
 * no longer depends on them: tests/unit/list-drops-plan.test.ts.)
 */
async function analyzePostgres(app: TestApp): Promise<void> {
  const tables = await app.sql<{ name: string }>("SELECT format('%I', tablename) AS name FROM pg_tables WHERE schemaname = current_schema()");
  await app.sql(`ANALYZE ${tables.map(({ name }) => name).join(", ")}`);
}

export type Fixtures = {
  token: string;
  /** The 50 KB drop every read target uses. */
  slug: string;
  rawPath: string;
  /** Its raw endpoint's answer, byte for byte: what the bare node:http server sends. */
  rawBytes: Buffer;
  etag: string;
  /** A locked drop, and the cookie of a viewer who entered its passcode. */
  lockedSlug: string;
  unlockCookie: string;
  /** The drop the PUT target keeps replacing. */
  putSlug: string;
  manyDropsToken: string;
  fewDropsToken: string;
};

export async function seed(app: TestApp): Promise<Fixtures> {
  const token = await app.createToken("bench");
  const drop = await createDrop(app, token, { title: "bench", html: fiftyKilobytes() });
  const rawPath = new URL(drop.raw_url).pathname;
  // Identity, as autocannon asks for it: these are the bytes (and the ETag) every read gets.
  const raw = await fetch(`${app.baseUrl}${rawPath}`, { headers: { "accept-encoding": "identity" } });
  const rawBytes = Buffer.from(await raw.arrayBuffer());

  const locked = await createDrop(app, token, { title: "bench, locked", html: fiftyKilobytes(), passcode: "bench-passcode" });
  const unlocked = await fetch(`${app.baseUrl}/p/${locked.slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "bench-passcode" }), redirect: "manual" });
  const unlockCookie = unlocked.headers.get("set-cookie")?.split(";")[0];
  if (!unlockCookie) throw new Error(`the unlock answered ${unlocked.status} without a cookie`);

  const put = await createDrop(app, token, { title: "bench, replaced", html: writeHtml() });
  const manyDropsToken = await listAccount(app, "many-drops", 500);
  const fewDropsToken = await listAccount(app, "few-drops", LIST_MATCHES);
  if (testDb() === "postgres") await analyzePostgres(app);
  return {
    token,
    slug: drop.slug,
    rawPath,
    rawBytes,
    etag: raw.headers.get("etag")!,
    lockedSlug: locked.slug,
    unlockCookie,
    putSlug: put.slug,
    manyDropsToken,
    fewDropsToken,
  };
}
