// A private redis-server that a test may pause, stop and start again. Pausing or stopping the shared
// Redis on 6379 would fail every other test file that uses it meanwhile.
import { type ChildProcess, spawn } from "node:child_process";
import IORedis from "ioredis";
import { freePort } from "./app";

export type PrivateRedis = {
  url: string;
  /** Runs one command on a fresh connection, e.g. `command("CLIENT", "PAUSE", "20000", "WRITE")`. */
  command(...args: string[]): Promise<unknown>;
  /** Kills the server (SIGKILL): its port then refuses connections. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
};

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let server: ChildProcess | null = null;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk) => {
        output += chunk;
        if (output.includes("Ready to accept connections")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
      server = child;
    });

  const stop = async () => {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null) return;
    child.removeAllListeners("exit");
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async command(name, ...args) {
      const client = new IORedis(port, "127.0.0.1", { maxRetriesPerRequest: 0 });
      try {
        return await client.call(name, ...args);
      } finally {
        client.disconnect();
      }
    },
    stop,
    start,
  };
}
