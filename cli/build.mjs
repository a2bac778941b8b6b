// Compiles the command into one file for Node.js. Only the packages in package.json's dependencies stay
// external: anything else, such as a stray import of the server's code, is bundled or fails here,
// never at a user's prompt.
import { chmodSync, readFileSync } from "node:fs";
import { build } from "esbuild";

const here = (path) => new URL(path, import.meta.url).pathname;
const { dependencies } = JSON.parse(readFileSync(here("package.json"), "utf8"));
const outfile = here("dist/htmldrop.mjs");

await build({
  entryPoints: [here("src/main.ts")],
  outfile,
  bundle: true,
  external: Object.keys(dependencies),
  format: "esm",
  platform: "node",
  target: "node20",
  banner: { js: "#!/usr/bin/env node" },
  logLevel: "warning",
});
chmodSync(outfile, 0o755);
