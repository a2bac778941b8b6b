// The last step of `npm run build`: compiles server.ts for plain Node.js, so `npm start` needs no
// TypeScript loader. Nothing is bundled: server.ts imports only Node.js and Next, and a stray import
// of lib/ fails at start instead of loading a second copy of the code.
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: ".next/htmldrop-server.mjs",
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});
