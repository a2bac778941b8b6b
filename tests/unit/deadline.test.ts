// A deadline measures the other side's silence: an answer that arrived while this process was busy
// past the deadline is still taken.
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { withDeadline } from "@/lib/deadline";

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
