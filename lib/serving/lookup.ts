import { getConfig } from "@/lib/config";
import { batchedReadsPool, PG_BATCHES_IN_FLIGHT, sqliteRow, sqliteStatement } from "@/lib/db/reads";
import { LookupCoalescer } from "@/lib/db/coalesce";
import { type KeptRows, keptRows } from "@/lib/db/kept-rows";
import { currentPlan, type InjectionPlan } from "@/lib/html/inject";
import type { MaybePromise } from "./maybe-async";

export type ServedVersion = {
  dropId: string;
  ownerId: string;
  /** Who may open it (lib/sharing/levels.ts), as stored. */
  access: string;
  passcodeHash: string | null;
  /** Unix ms; null when the drop never expires. */
  expiresAt: number | null;
  /** null when the drop exists but has no such version. */
  blobSha: string | null;
  /** The owner lets search engines index it (SQLite answers 0 or 1). */
  indexable: boolean | number;
};

// SQLite keeps DateTime as Unix ms (lib/db/sqlite-adapter.ts); PostgreSQL's timestamp(3) holds UTC,
// read as Unix ms here so node-pg never applies the process's time zone to it.
const SQLITE_EXPIRES_AT = `d."expiresAt" AS "expiresAt"`;
const PG_EXPIRES_AT = `(EXTRACT(EPOCH FROM d."expiresAt") * 1000)::float8 AS "expiresAt"`;
const COLUMNS = `d."id" AS "dropId", d."ownerId" AS "ownerId", d."access" AS "access", d."passcodeHash" AS "passcodeHash", v."blobSha" AS "blobSha", d."indexable" AS "indexable"`;
const SQLITE_COLUMNS = `${COLUMNS}, ${SQLITE_EXPIRES_AT}`;
const LATEST_SQL = `SELECT ${SQLITE_COLUMNS} FROM "Drop" d LEFT JOIN "Version" v ON v."dropId" = d."id" AND v."number" = d."latestVersion" WHERE d."slug" = ?`;
const PINNED_SQL = `SELECT ${SQLITE_COLUMNS} FROM "Drop" d LEFT JOIN "Version" v ON v."dropId" = d."id" AND v."number" = ? WHERE d."slug" = ?`;

// One query answers a whole batch of (slug, version) lookups; a null version means the head. Each row is
// found by its own index probe (LATERAL … LIMIT 1, which the planner cannot fold into a join): joined,
// PostgreSQL's generic plan read and hashed every drop of a table of a few hundred, which cost it about
// 170 µs of CPU a query against 60 (500 drops; the viewer's `slug = ANY($1)`, 90 against 45).
const PG_BATCH = {
  name: "htmldrop_raw_batch",
  text: `SELECT q."index"::int AS "index", ${COLUMNS}, ${PG_EXPIRES_AT}
    FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS q("slug", "version", "index")
    CROSS JOIN LATERAL (SELECT * FROM "Drop" WHERE "slug" = q."slug" LIMIT 1) d
    LEFT JOIN LATERAL (SELECT "blobSha" FROM "Version" WHERE "dropId" = d."id" AND "number" = COALESCE(q."version", d."latestVersion") LIMIT 1) v ON true`,
};

const BLOB_QUERY_HEAD = `SELECT "bytes", "injectOffset", "injectViewport", "injectLayoutWidth", "injectPlanVersion" FROM "Blob" WHERE "sha256" =`;
const BLOB_SQL = `${BLOB_QUERY_HEAD} ?`;
const PG_BLOB_SQL = `${BLOB_QUERY_HEAD} $1`;
type BlobRow = {
  bytes: Buffer;
  injectOffset: number | null;
  injectViewport: boolean | number | null;
  injectLayoutWidth: number | null;
  injectPlanVersion: number | null;
};

/**
 * What decides whether a viewer page rendered earlier is still current (lib/serving/cached-pages.ts)
 * and may be shown, and what the view beacon needs to count a view (lib/serving/view-beacon.ts).
 */
/** A lookup's row as viewerOn (lib/sharing/standing.ts) reads a drop, which names the drop's id `id` as Prisma does. */
export function viewedDrop(row: Pick<ServedVersion, "dropId" | "ownerId" | "access" | "passcodeHash" | "expiresAt">) {
  return { id: row.dropId, ownerId: row.ownerId, access: row.access, passcodeHash: row.passcodeHash, expiresAt: row.expiresAt };
}

export type ViewerState = {
  dropId: string;
  ownerId: string;
  /** Who may open it (lib/sharing/levels.ts), as stored. */
  access: string;
  passcodeHash: string | null;
  revision: number;
  /** Unix ms; null when the drop never expires. */
  expiresAt: number | null;
  latestVersion: number;
  /** The highest version number ever minted. */
  versionSeq: number;
  /** The owner lets search engines index it (SQLite answers 0 or 1). */
  indexable: boolean | number;
};
const VIEWER_STATE_COLUMNS = `d."id" AS "dropId", d."ownerId" AS "ownerId", d."access" AS "access", d."passcodeHash" AS "passcodeHash", d."revision" AS "revision", d."latestVersion" AS "latestVersion", d."versionSeq" AS "versionSeq", d."indexable" AS "indexable"`;
const VIEWER_STATE_SQL = `SELECT ${VIEWER_STATE_COLUMNS}, ${SQLITE_EXPIRES_AT} FROM "Drop" d WHERE d."slug" = ?`;
// Concurrent viewer requests share one query, as raw lookups do, and probe the index as they do (PG_BATCH).
const PG_VIEWER_STATE_BATCH = {
  name: "htmldrop_viewer_state_batch",
  text: `SELECT q."slug" AS "slug", ${VIEWER_STATE_COLUMNS}, ${PG_EXPIRES_AT}
    FROM unnest($1::text[]) AS q("slug") CROSS JOIN LATERAL (SELECT * FROM "Drop" WHERE "slug" = q."slug" LIMIT 1) d`,
};
const VIEWER_COALESCER_KEY = Symbol.for("htmldrop.viewer-state-pg");
type ViewerCoalescerHolder = { [VIEWER_COALESCER_KEY]?: LookupCoalescer<string, ViewerState | null> };

type Lookup = { slug: string; version: number | null };
const COALESCER_KEY = Symbol.for("htmldrop.serving-pg");
type CoalescerHolder = { [COALESCER_KEY]?: LookupCoalescer<Lookup, ServedVersion | null> };

/**
 * The raw endpoint's lookup on the embedded database skips Prisma: a prepared statement's row on the
 * read-only connection (lib/db/reads.ts), kept until the database changes, answers in microseconds, where
 * a Prisma round trip costs about half a millisecond and would cap the hot path far below a bare node:http
 * server. On PostgreSQL, where each lookup is a network round trip, an instance answers from the rows it
 * keeps (lib/db/kept-rows.ts) and otherwise the batched reads' pool runs one prepared query per batch of
 * concurrent lookups (see LookupCoalescer for why that never serves a stale answer).
 */
function postgresLookups(): LookupCoalescer<Lookup, ServedVersion | null> {
  const holder = globalThis as CoalescerHolder;
  if (!holder[COALESCER_KEY]) {
    const pool = batchedReadsPool();
    const runBatch = async (lookups: Lookup[]) => {
      const values = [lookups.map((lookup) => lookup.slug), lookups.map((lookup) => lookup.version)];
      const { rows } = await pool.query<ServedVersion & { index: number }>({ ...PG_BATCH, values });
      return new Map(rows.map(({ index, ...found }) => [lookupId(lookups[index - 1]!), found]));
    };
    holder[COALESCER_KEY] = new LookupCoalescer(runBatch, lookupId, null, PG_BATCHES_IN_FLIGHT);
  }
  return holder[COALESCER_KEY];
}

function lookupId({ slug, version }: Lookup): string {
  return `${version ?? "head"}/${slug}`;
}

/**
 * The drop's lock state and the blob of one version (the head when `version` is null), in one indexed
 * query, kept only while it is current (on SQLite, until the database changes; on PostgreSQL, until a
 * write's notification), so a PUT, a passcode change or a delete is visible on every instance the moment it returns.
 * Synchronous on SQLite.
 */
export function findServedVersion(slug: string, version: number | null): MaybePromise<ServedVersion | null> {
  const { database } = getConfig();
  if (database.provider === "sqlite") {
    return (version === null ? sqliteRow<ServedVersion>(database.file, LATEST_SQL, [slug]) : sqliteRow<ServedVersion>(database.file, PINNED_SQL, [version, slug])) ?? null;
  }
  return keptOrLoaded(servedRows(), lookupId({ slug, version }), () => postgresLookups().load({ slug, version }));
}

/**
 * On PostgreSQL, a row the instance keeps (lib/db/kept-rows.ts), or the database's answer, kept for the
 * next request. Only rows of drops that exist are kept: a drop's creation has no fence to wait for.
 */
function keptOrLoaded<V extends object>(kept: KeptRows<V>, key: string, load: () => Promise<V | null>): MaybePromise<V | null> {
  const row = kept.get(key);
  if (row) return row;
  const mark = kept.mark();
  return load().then((found) => {
    if (found) kept.keep(key, found, mark);
    return found;
  });
}

let served: KeptRows<ServedVersion> | undefined;
let viewed: KeptRows<ViewerState> | undefined;
const servedRows = () => (served ??= keptRows("served-version"));
const viewerStates = () => (viewed ??= keptRows("viewer-state"));

export type ServedBlob = { bytes: Buffer; plan: InjectionPlan | null };

/**
 * A blob's bytes and injection plan, on the same connections as the lookup: Prisma hands bytes
 * through base64 and took up to 100 ms of the event loop for 2 MB; a prepared statement takes about 1.5 ms.
 */
export async function readServedBlob(sha256: string): Promise<ServedBlob | null> {
  const { database } = getConfig();
  let row: BlobRow | undefined;
  if (database.provider === "sqlite") {
    row = sqliteStatement<[string], BlobRow>(database.file, BLOB_SQL).get(sha256);
  } else {
    row = (await batchedReadsPool().query<BlobRow>(PG_BLOB_SQL, [sha256])).rows[0];
  }
  if (!row) return null;
  const plan = currentPlan({
    offsetBytes: row.injectOffset,
    addViewport: row.injectViewport === null ? null : Boolean(row.injectViewport),
    layoutWidth: row.injectLayoutWidth,
    version: row.injectPlanVersion,
  });
  return { bytes: row.bytes, plan };
}

/** A drop's id, lock and revision, kept only while current as findServedVersion's are, so a cached page is never served past a write. */
export function findViewerState(slug: string): MaybePromise<ViewerState | null> {
  const { database } = getConfig();
  if (database.provider === "sqlite") return sqliteRow<ViewerState>(database.file, VIEWER_STATE_SQL, [slug]) ?? null;
  return keptOrLoaded(viewerStates(), slug, () => postgresViewerStates().load(slug));
}

function postgresViewerStates(): LookupCoalescer<string, ViewerState | null> {
  const holder = globalThis as ViewerCoalescerHolder;
  if (!holder[VIEWER_COALESCER_KEY]) {
    const pool = batchedReadsPool();
    const runBatch = async (slugs: string[]) => {
      const { rows } = await pool.query<ViewerState & { slug: string }>({ ...PG_VIEWER_STATE_BATCH, values: [slugs] });
      return new Map(rows.map(({ slug, ...found }) => [slug, found]));
    };
    holder[VIEWER_COALESCER_KEY] = new LookupCoalescer(runBatch, (slug: string) => slug, null, PG_BATCHES_IN_FLIGHT);
  }
  return holder[VIEWER_COALESCER_KEY];
}
