// `npm start`: builds once if no build is found, then runs the compiled server (server.ts).
import "./env-files.mjs";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const compiledServer = join(process.cwd(), ".next", "htmldrop-server.mjs");
if (!existsSync(join(process.cwd(), ".next", "BUILD_ID")) || !existsSync(compiledServer)) {
  console.log("htmldrop: no build found, running `npm run build` once");
  const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (build.status !== 0) {
    console.error("htmldrop: the build failed");
    process.exit(1);
  }
}
await import(pathToFileURL(compiledServer).href);
