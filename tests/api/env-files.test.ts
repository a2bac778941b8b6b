// Issue 31, leftover 21: `npm start` and the operator commands read `.env` files as Next.js does (the
// environment winning), so an operator who writes `.env`, as Next's documentation teaches, gets a server
// and an admin command that agree with each other and with Next's pages.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkoutWithEnvFiles, freePort, startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let checkout: string;

beforeAll(async () => {
  checkout = checkoutWithEnvFiles({
    ".env": "TOKEN_PREFIX=plain\nLIMIT_WRITES_PER_MINUTE=2\nPUBLIC_URL=http://from-file.invalid\n",
    ".env.local": "TOKEN_PREFIX=local\n",
  });
  const port = await freePort();
  app = await startApp({ cwd: checkout, env: { PORT: String(port), PUBLIC_URL: `http://localhost:${port}` } });
});
afterAll(async () => {
  await app?.stop();
  if (checkout) rmSync(checkout, { recursive: true, force: true });
});

it("gives the server and the admin command the same settings from .env files, and the environment the last word", async () => {
  const { stdout } = await app.command("admin", ["token", "create", "--login", "dotenv"]);
  const token = stdout.trim().split("\n").at(-1)!;
  // `.env.local` over `.env`, as Next.js reads them.
  expect(token).toMatch(/^local_/);

  const writes = [];
  for (const title of ["one", "two", "three"]) writes.push(await app.api("/api/drops", { method: "POST", token, body: { title, html: "<p>x</p>" } }));
  expect(writes.map((write) => write.status)).toEqual([201, 201, 429]);
  // PUBLIC_URL is set in both: the environment's wins.
  expect(writes[0]!.body.url).toBe(`${app.baseUrl}/p/${writes[0]!.body.slug}`);
});
