// A write announces a drop's change once, through dropChanged: the revision is bumped inside the write's
// transaction, and Next's shared pages (Vercel) are expired only after it commits, never when it rolls
// back: an expiry before the commit lets another request cache the page as it was before the write.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";

const revalidateTag = vi.hoisted(() => vi.fn());
vi.mock("next/cache", () => ({ revalidateTag }));

const dataDir = mkdtempSync(join(tmpdir(), "htmldrop-drop-changed-"));
let lib: typeof import("@/lib/db");
let changed: typeof import("@/lib/drops/changed");
const drop = { id: "drop-1", slug: "changeddrop1" };

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  process.env.VERCEL = "1";
  const { getConfig } = await import("@/lib/config");
  const { migrate } = await import("@/lib/db/migrate");
  await migrate(getConfig().database);
  lib = await import("@/lib/db");
  changed = await import("@/lib/drops/changed");
  const at = new Date();
  await lib.db().user.create({ data: { id: "owner", createdAt: at, dropCount: 1 } });
  await lib.db().drop.create({
    data: { ...drop, ownerId: "owner", title: "t", latestVersion: 1, versionSeq: 1, versionCount: 1, createdAt: at, updatedAt: at },
  });
});
afterAll(async () => {
  await lib?.disconnectDb();
  delete process.env.VERCEL;
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => revalidateTag.mockClear());

async function revision(): Promise<number> {
  return (await lib.db().drop.findUniqueOrThrow({ where: { id: drop.id } })).revision;
}

it("bumps the revision in the transaction and expires the drop's pages only once it commits", async () => {
  const before = await revision();
  await lib.transaction(async (tx) => {
    await changed.dropChanged(tx, drop);
    expect(revalidateTag).not.toHaveBeenCalled();
  });
  expect(revalidateTag).toHaveBeenCalledExactlyOnceWith(changed.dropPagesTag(drop.slug), { expire: 0 });
  expect(await revision()).toBe(before + 1);
});

it("neither bumps nor expires anything when the transaction rolls back", async () => {
  const before = await revision();
  await expect(
    lib.transaction(async (tx) => {
      await changed.dropChanged(tx, drop);
      throw new Error("undone");
    }),
  ).rejects.toThrow("undone");
  expect(revalidateTag).not.toHaveBeenCalled();
  expect(await revision()).toBe(before);
});

it("announces a service's write once, after its commit", async () => {
  const { patchDrop } = await import("@/lib/drops/patch-drop");
  const before = await revision();
  await patchDrop("owner", drop.slug, { title: "changed" });
  expect(revalidateTag).toHaveBeenCalledExactlyOnceWith(changed.dropPagesTag(drop.slug), { expire: 0 });
  expect(await revision()).toBe(before + 1);
});

it("refuses a commit hook outside a transaction opened by transaction()", async () => {
  await expect(lib.db().$transaction(async (tx) => changed.dropChanged(tx, drop))).rejects.toThrow("afterCommit needs a transaction");
});
