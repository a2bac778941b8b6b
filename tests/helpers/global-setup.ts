import { existsSync } from "node:fs";
import { join } from "node:path";
import { compileFixtureCommands, startRunTokenMinter } from "./fixture-commands";

// Tests drive the production build through `npm start`'s script; `npm test` builds first.
export default async function setup(): Promise<() => Promise<void>> {
  if (!["BUILD_ID", "htmldrop-server.mjs"].every((file) => existsSync(join(import.meta.dirname, "..", "..", ".next", file)))) {
    throw new Error("No Next.js build found: run `npm run build` (or `npm test`, which builds first).");
  }
  await compileFixtureCommands();
  // One token minter for every worker of the run (fixture-commands.ts).
  return startRunTokenMinter();
}
