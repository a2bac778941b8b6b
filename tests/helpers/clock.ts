// Moves the clock of a running server (lib/clock.ts reads HTMLDROP_TEST_CLOCK_FILE on each call).
import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export type TestClock = {
  /** Pass as HTMLDROP_TEST_CLOCK_FILE to startApp. */
  file: string;
  advance(ms: number): void;
  /** Sets the server's time to `serverTime` (Unix ms) as of now; it runs on from there. */
  moveTo(serverTime: number): void;
  /** Jumps to one second into the next window of this length, so a fixed rate-limit window cannot close mid-test. */
  startWindow(windowMs: number): void;
};

export function createTestClock(): TestClock {
  const file = join(mkdtempSync(join(tmpdir(), "htmldrop-clock-")), "offset");
  let offset = 0;
  // Written aside and renamed over, so a server never reads a half-written (empty) file as offset 0.
  const set = (ms: number) => {
    writeFileSync(`${file}.next`, String((offset = ms)));
    renameSync(`${file}.next`, file);
  };
  set(0);
  return {
    file,
    advance: (ms) => set(offset + ms),
    moveTo: (serverTime) => set(serverTime - Date.now()),
    startWindow(windowMs) {
      const serverNow = Date.now() + offset;
      set(offset + (Math.ceil(serverNow / windowMs) * windowMs + 1000 - serverNow));
    },
  };
}
