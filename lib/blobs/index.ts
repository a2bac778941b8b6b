import { createHash } from "node:crypto";
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db";
import { INJECTION_PLAN_VERSION, type InjectionPlan } from "@/lib/html/inject";
import { planInjectionOffThread } from "@/lib/html/injection-pool";

/** An upload ready to store: hashed and planned before any transaction holds a lock. */
export type PreparedBlob = { sha256: string; bytes: Buffer; plan: InjectionPlan };
export type StoredBlob = { sha256: string; sizeBytes: number };

/**
 * Hashes an upload and plans its served form on a worker thread. The uploader pays for parsing its
 * document, once, in its own turn (`ownerId` is the fairness key); viewers never parse anything.
 */
export async function prepareBlob(html: string, ownerId: string): Promise<PreparedBlob> {
  const bytes = Buffer.from(html, "utf8");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { sha256, bytes, plan: await planInjectionOffThread(bytes, ownerId) };
}

/**
 * Stores HTML by the sha256 of its bytes; identical uploads share one row. On conflict the existing
 * row is updated (to itself), which locks it until this transaction ends: a concurrent
 * deleteOrphanBlobs then waits and sees the new reference instead of deleting a blob in use.
 * (ON CONFLICT rather than catching a unique violation, which would abort a PostgreSQL transaction.)
 */
export async function storeBlob(tx: Tx, blob: PreparedBlob): Promise<StoredBlob> {
  const { sha256, bytes, plan } = blob;
  await tx.$executeRaw`INSERT INTO "Blob" ("sha256", "bytes", "sizeBytes", "createdAt", "injectOffset", "injectViewport", "injectLayoutWidth", "injectPlanVersion")
    VALUES (${sha256}, ${bytes}, ${bytes.length}, ${new Date(now())}, ${plan.offsetBytes}, ${plan.addViewport}, ${plan.layoutWidth}, ${INJECTION_PLAN_VERSION})
    ON CONFLICT ("sha256") DO UPDATE SET "sha256" = EXCLUDED."sha256"`;
  return { sha256, sizeBytes: bytes.length };
}

/**
 * Removes the given blobs if no version references them any more; call inside the transaction that
 * dropped the references. A concurrent upload of the same bytes may reference a blob between the
 * check and the delete; the foreign key then refuses the delete, which is undone alone (a savepoint)
 * so the blob stays and the caller's transaction goes on.
 */
export async function deleteOrphanBlobs(tx: Tx, shas: Iterable<string>): Promise<void> {
  for (const sha of new Set(shas)) {
    await tx.$executeRawUnsafe(`SAVEPOINT orphan_blob`);
    try {
      await tx.$executeRaw`DELETE FROM "Blob" WHERE "sha256" = ${sha} AND NOT EXISTS (SELECT 1 FROM "Version" WHERE "blobSha" = ${sha})`;
      await tx.$executeRawUnsafe(`RELEASE SAVEPOINT orphan_blob`);
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT orphan_blob`);
      await tx.$executeRawUnsafe(`RELEASE SAVEPOINT orphan_blob`);
    }
  }
}

/** A raw statement's failure carries the driver's own classification (Prisma wraps it as P2010). */
function isForeignKeyViolation(error: unknown): boolean {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { kind?: string } } } }).meta?.driverAdapterError?.cause;
  return cause?.kind === "ForeignKeyConstraintViolation";
}

/** Records the plan of a blob stored before plans (or this planner) existed: once per blob, never per request. */
export async function savePlan(sha256: string, plan: InjectionPlan): Promise<void> {
  await db().blob.updateMany({
    where: { sha256, OR: [{ injectOffset: null }, { injectPlanVersion: null }, { injectPlanVersion: { lt: INJECTION_PLAN_VERSION } }] },
    data: { injectOffset: plan.offsetBytes, injectViewport: plan.addViewport, injectLayoutWidth: plan.layoutWidth, injectPlanVersion: INJECTION_PLAN_VERSION },
  });
}
