// The bytes served for a stored blob never change (the blob is content-addressed and its injection plan
// is fixed when it is stored), so they are cached in process by sha256, with their ETag and compressed
// forms. Building them is a splice and a small hash: no parsing and no pass over the body on the event loop.
import { createHash } from "node:crypto";
import { constants as zlibConstants, createBrotliCompress, createGzip } from "node:zlib";
import { savePlan } from "@/lib/blobs";
import { SERVED_DOCUMENTS_BYTES } from "./cache-budget";
import { injectedParts, injectionBlock } from "@/lib/html/inject";
import { planInjectionOffThread } from "@/lib/html/injection-pool";
import { readServedBlob } from "./lookup";
import type { MaybePromise } from "./maybe-async";

export type Encoding = "br" | "gzip" | "identity";

export type ServedDocument = {
  /** The identity body's length in bytes. */
  size: number;
  /**
   * The stored bytes with the block spliced in: one buffer, which a response writes as it writes any
   * other. Joined on the first answer that sends it uncompressed: one that is compressed reads the parts.
   */
  identity(): Buffer;
  /** The identity body as the parts it is joined from, or as the one buffer once joined. */
  parts(): readonly Buffer[];
  /** The strong ETag of the identity body; each encoding gets its own suffix. */
  tag: string;
  encoded: Partial<Record<"br" | "gzip", Promise<Buffer>>>;
};

/** Compresses the parts, as one body, on libuv's thread pool. */
function compress(parts: readonly Buffer[], size: number, encoding: "br" | "gzip"): Promise<Buffer> {
  const stream =
    encoding === "br"
      ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size } })
      : createGzip({ level: 6 });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.once("end", () => resolve(Buffer.concat(chunks)));
    stream.once("error", reject);
    for (const part of parts) stream.write(part);
    stream.end();
  });
}

/**
 * A document served from these parts. Joining them copies the whole body and leaves the stored bytes as
 * garbage; a document only ever sent compressed (as browsers and agents ask) never pays that, which on
 * large documents that miss the cache cost about a tenth of the requests served (bench:hostile's raw).
 */
function documentOf(spliced: readonly Buffer[], tag: string): ServedDocument {
  let parts = spliced;
  return {
    size: spliced.reduce((total, part) => total + part.length, 0),
    identity() {
      if (parts.length !== 1) parts = [Buffer.concat(parts)];
      return parts[0]!;
    },
    parts: () => parts,
    tag,
    encoded: {},
  };
}

// Bodies under this size gain nothing from compression.
export const MIN_COMPRESSIBLE_BYTES = 1024;

/** A build in flight, or its document once built (then served without a promise). */
type Entry = { pending: Promise<ServedDocument | null>; built?: ServedDocument };
type Cache = { entries: Map<string, Entry>; sizes: Map<string, number>; bytes: number; hits: number; misses: number };
const CACHE_KEY = Symbol.for("htmldrop.served-documents");
type CacheHolder = { [CACHE_KEY]?: Cache };

function cache(): Cache {
  const holder = globalThis as CacheHolder;
  return (holder[CACHE_KEY] ??= { entries: new Map(), sizes: new Map(), bytes: 0, hits: 0, misses: 0 });
}

/** For /metrics: what the cache holds and how often it answered. */
export function servedDocumentsStats(): { bytes: number; entries: number; hits: number; misses: number } {
  const { bytes, entries, hits, misses } = cache();
  return { bytes, entries: entries.size, hits, misses };
}

function account(state: Cache, sha256: string, bytes: number): void {
  if (!state.entries.has(sha256)) return;
  state.sizes.set(sha256, (state.sizes.get(sha256) ?? 0) + bytes);
  state.bytes += bytes;
  // Least recently used first: Map iteration order is insertion order and hits re-insert.
  for (const key of state.entries.keys()) {
    if (state.bytes <= SERVED_DOCUMENTS_BYTES || key === sha256) break;
    state.bytes -= state.sizes.get(key) ?? 0;
    state.sizes.delete(key);
    state.entries.delete(key);
  }
}

async function buildDocument(sha256: string): Promise<ServedDocument | null> {
  const stored = await readServedBlob(sha256);
  if (!stored) return null;
  let plan = stored.plan;
  if (!plan) {
    // Stored before plans (or this planner) existed: planned once, in the blob's own turn, then kept.
    plan = await planInjectionOffThread(stored.bytes, `blob:${sha256}`);
    await savePlan(sha256, plan);
  }
  // The served bytes are a function of the blob, the offset and the block, so hashing those names them.
  const tag = createHash("sha256").update(`${sha256}\n${plan.offsetBytes}\n${injectionBlock(plan)}`).digest("base64url").slice(0, 32);
  return documentOf(injectedParts(stored.bytes, plan), tag);
}

/** The served form of a blob, built once per process (concurrent first requests share one build). */
export function getServedDocument(sha256: string): MaybePromise<ServedDocument | null> {
  const state = cache();
  const hit = state.entries.get(sha256);
  if (hit) {
    state.hits++;
    state.entries.delete(sha256);
    state.entries.set(sha256, hit);
    return hit.built ?? hit.pending;
  }
  state.misses++;
  const entry: Entry = { pending: buildDocument(sha256) };
  state.entries.set(sha256, entry);
  return entry.pending.then(
    (document) => {
      if (!document) state.entries.delete(sha256);
      else {
        entry.built = document;
        account(state, sha256, document.size);
      }
      return document;
    },
    (error: unknown) => {
      state.entries.delete(sha256);
      throw error;
    },
  );
}

/** The body in the given encoding, compressed once and kept beside the identity bytes. */
export function encodedBody(sha256: string, document: ServedDocument, encoding: "br" | "gzip"): Promise<Buffer> {
  let body = document.encoded[encoding];
  if (!body) {
    body = compress(document.parts(), document.size, encoding);
    document.encoded[encoding] = body;
    body.then((bytes) => account(cache(), sha256, bytes.length)).catch(() => delete document.encoded[encoding]);
  }
  return body;
}
