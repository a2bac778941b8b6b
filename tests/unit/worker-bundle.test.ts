// The built server's worker pools start the worker chunks Next compiled, never a worker's .ts source
// through tsx: Turbopack keeps import.meta.url naming the source, which the pools once took for "run
// from source". A Vercel function does not carry those sources, so there every worker would fail and
// every upload and compare get its fallback answer. (`npm test` builds first.)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const CHUNKS = join(import.meta.dirname, "..", "..", ".next", "server", "chunks");

it("bundles each pool's worker as compiled JavaScript and no loader of its source", () => {
  const chunks = readdirSync(CHUNKS, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
  for (const worker of ["lib_html_inject-worker", "lib_serving_compare-worker"]) {
    expect(chunks.some((file) => file.includes(`[worker thread]-${worker}`)), worker).toBe(true);
  }
  expect(chunks.filter((file) => readFileSync(join(CHUNKS, file), "utf8").includes("tsx/esm/api"))).toEqual([]);
});
