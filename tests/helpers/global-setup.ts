import { existsSync } from "node:fs";
import { join } from "node:path";

// Tests drive the production build through `tsx server.ts`; `npm test` builds first.
export default function setup(): void {
  if (!existsSync(join(import.meta.dirname, "..", "..", ".next", "BUILD_ID"))) {
    throw new Error("No Next.js build found: run `npm run build` (or `npm test`, which builds first).");
  }
}
