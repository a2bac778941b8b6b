import { describe, expect, it } from "vitest";
import { LookupCoalescer } from "@/lib/db/coalesce";

/** A store whose batches finish only when the test says so; each batch reads the store when it starts. */
function controlledStore(initial: Record<string, number>) {
  const store = { ...initial };
  const batches: { keys: string[]; finish: () => void; fail: (error: Error) => void }[] = [];
  const runBatch = (keys: string[]) => {
    const snapshot = new Map(keys.filter((key) => key in store).map((key) => [key, store[key]!]));
    return new Promise<Map<string, number>>((resolve, reject) => {
      batches.push({ keys, finish: () => resolve(snapshot), fail: reject });
    });
  };
  return { store, batches, runBatch };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("LookupCoalescer", () => {
  it("starts a batch at once while below its limit", async () => {
    const { batches, runBatch } = controlledStore({ a: 1, b: 2 });
    const coalescer = new LookupCoalescer(runBatch, (key: string) => key, -1, 2);
    const a = coalescer.load("a");
    const b = coalescer.load("b");
    expect(batches.map((batch) => batch.keys)).toEqual([["a"], ["b"]]);
    batches.forEach((batch) => batch.finish());
    expect([await a, await b]).toEqual([1, 2]);
  });

  it("never answers a lookup from a batch that started before it was asked", async () => {
    const { store, batches, runBatch } = controlledStore({ drop: 1 });
    const coalescer = new LookupCoalescer(runBatch, (key: string) => key, -1, 1);
    const before = coalescer.load("drop");
    store.drop = 2; // a write commits while the first batch is in flight
    const after = coalescer.load("drop");
    expect(batches).toHaveLength(1);
    batches[0]!.finish();
    expect(await before).toBe(1);
    await settle();
    expect(batches).toHaveLength(2);
    batches[1]!.finish();
    expect(await after).toBe(2);
  });

  it("sends the lookups that waited as one batch, equal keys once", async () => {
    const { batches, runBatch } = controlledStore({ a: 1, b: 2 });
    const coalescer = new LookupCoalescer(runBatch, (key: string) => key, -1, 1);
    const first = coalescer.load("a");
    const waiting = [coalescer.load("a"), coalescer.load("b"), coalescer.load("a"), coalescer.load("gone")];
    batches[0]!.finish();
    await first;
    await settle();
    expect(batches.map((batch) => batch.keys)).toEqual([["a"], ["a", "b", "gone"]]);
    batches[1]!.finish();
    expect(await Promise.all(waiting)).toEqual([1, 2, 1, -1]);
  });

  it("rejects every lookup of a failed batch and goes on with the next", async () => {
    const { batches, runBatch } = controlledStore({ a: 1 });
    const coalescer = new LookupCoalescer(runBatch, (key: string) => key, -1, 1);
    const first = coalescer.load("a");
    const second = coalescer.load("a");
    const third = coalescer.load("a");
    batches[0]!.fail(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await settle();
    batches[1]!.fail(new Error("still down"));
    await expect(second).rejects.toThrow("still down");
    await expect(third).rejects.toThrow("still down");
    const fourth = coalescer.load("a");
    await settle();
    batches[2]!.finish();
    expect(await fourth).toBe(1);
  });

  it("turns a synchronous throw of the batch function into rejections", async () => {
    const coalescer = new LookupCoalescer<string, number>(
      () => {
        throw new Error("bad query");
      },
      (key) => key,
      -1,
      1,
    );
    await expect(coalescer.load("a")).rejects.toThrow("bad query");
  });
});
