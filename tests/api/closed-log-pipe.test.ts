// A server whose log collector went away (stdout and stderr piped to a process that exited) keeps
// serving and stays idle. Each line it then writes fails with EPIPE; unhandled, that error reaches
// Next's uncaughtException handler, which logs it to the same closed stream, and so on without end.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let token: string;

beforeAll(async () => {
  // Nothing listens there: every write is refused with 503 and logs a line (the limits fail closed).
  app = await startApp({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
  token = await app.createToken("closed-log-pipe");
});
afterAll(async () => app?.stop());

/** CPU seconds the process has used (utime + stime, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

it("drops the lines it cannot write, and keeps serving without spinning", async () => {
  const pid = app.closeOutput();
  for (let write = 0; write < 3; write++) {
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p/>" } })).status).toBe(503);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = cpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  // Idle, a server uses a few hundredths of a second in 3 s; logging its own failures, a whole core.
  expect(cpuSeconds(pid) - before).toBeLessThan(0.25);
  expect((await app.api("/api/me", { token })).status).toBe(200);
});
