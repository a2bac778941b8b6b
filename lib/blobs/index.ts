import { createHash } from "node:crypto";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db";

export type StoredBlob = { sha256: string; sizeBytes: number };

/** Stores HTML by the sha256 of its bytes; identical uploads share one row. */
export async function storeBlob(tx: Tx, html: string): Promise<StoredBlob> {
  const bytes = Buffer.from(html, "utf8");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  // ON CONFLICT rather than catching a unique violation, which would abort a PostgreSQL transaction.
  await tx.$executeRaw`INSERT INTO "Blob" ("sha256", "bytes", "sizeBytes", "createdAt") VALUES (${sha256}, ${bytes}, ${bytes.length}, ${new Date(now())}) ON CONFLICT ("sha256") DO NOTHING`;
  return { sha256, sizeBytes: bytes.length };
}

/** Removes the given blobs if no version references them any more; call inside the transaction that dropped the references. */
export async function deleteOrphanBlobs(tx: Tx, shas: Iterable<string>): Promise<void> {
  for (const sha of new Set(shas)) {
    await tx.$executeRaw`DELETE FROM "Blob" WHERE "sha256" = ${sha} AND NOT EXISTS (SELECT 1 FROM "Version" WHERE "blobSha" = ${sha})`;
  }
}

export async function readBlob(sha256: string): Promise<Buffer | null> {
  const blob = await db().blob.findUnique({ where: { sha256 }, select: { bytes: true } });
  return blob ? Buffer.from(blob.bytes) : null;
}
