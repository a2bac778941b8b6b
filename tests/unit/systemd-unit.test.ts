// The README's systemd unit runs the server without npm (one process fewer to hold memory), so it
// repeats `npm start`'s Node.js flags: this keeps the copy equal to package.json's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");

it("runs what npm start runs", () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const execStart = readFileSync(join(ROOT, "README.md"), "utf8").match(/^ExecStart=\/usr\/bin\/(.+)$/m)?.[1];
  expect(execStart).toBe(scripts.start);
});
