// A deadline measures the other side's silence: an answer that arrived while this process was busy
// past the deadline is still taken, and time this process spent before it wrote is not silence.
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { Liveness, untilSilent, withDeadline } from "@/lib/deadline";

function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe("withDeadline", () => {
  it("rejects work that does not answer in time", async () => {
    await expect(withDeadline(new Promise(() => {}), 20)).rejects.toThrow("no answer within 20 ms");
  });

  it("takes an answer that arrived over the network while the event loop was blocked past the deadline", async () => {
    // Another process, so that it answers while this one is stalled: the machine's Redis.
    const client = connect(6379, "127.0.0.1");
    await new Promise((resolve) => client.once("connect", resolve));
    try {
      const answer = new Promise<string>((resolve) => client.once("data", (data) => resolve(data.toString())));
      const pending = withDeadline(answer, 10);
      client.write("PING\r\n");
      // The answer comes back within a millisecond, while this process stalls for 80.
      busyFor(80);
      await expect(pending).resolves.toBe("+PONG\r\n");
    } finally {
      client.destroy();
    }
  });
});

describe("untilSilent", () => {
  const never = () => new Promise<never>(() => {});

  it("rejects once the other side has owed an answer and said nothing for the silence", async () => {
    const liveness = new Liveness();
    liveness.sent();
    const startedAt = performance.now();
    await expect(untilSilent(never(), liveness, 50, 5_000)).rejects.toThrow(/no answer for \d+ ms/);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });

  it("does not count the time this process spent before writing as silence", async () => {
    const liveness = new Liveness();
    const answer = new Promise<string>((resolve) => setTimeout(() => resolve("late but heard"), 100));
    const pending = untilSilent(answer, liveness, 50, 5_000);
    busyFor(80);
    liveness.sent();
    setTimeout(() => liveness.answered(), 20);
    await expect(pending).resolves.toBe("late but heard");
  });

  it("keeps waiting while answers to other requests arrive, until the backstop", async () => {
    const liveness = new Liveness();
    liveness.sent();
    liveness.sent();
    const others = setInterval(() => {
      liveness.answered();
      liveness.sent();
    }, 10);
    try {
      const startedAt = performance.now();
      await expect(untilSilent(never(), liveness, 50, 300)).rejects.toThrow("no answer within 300 ms");
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(290);
    } finally {
      clearInterval(others);
    }
  });
});
