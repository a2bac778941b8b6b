// `npm run bench:diff`: the longest a version diff (lib/drops/diff.ts) holds the event loop, on pairs of
// 2 MB documents built to be slow for Myers' algorithm, each either diffed or refused as too large.
import { diffSources } from "@/lib/drops/diff-text";

const TWO_MB = 2_097_152;

function lines(count: number, line: (index: number) => string): string {
  return Array.from({ length: count }, (_, index) => line(index)).join("\n");
}

const padded = (text: string, fill: string) => text.padEnd(80, fill);
const CASES: Record<string, [string, string]> = {
  "1M one-character lines, each pair swapped": [lines(TWO_MB / 2 - 1, (i) => (i % 2 ? "a" : "b")), lines(TWO_MB / 2 - 1, (i) => (i % 2 ? "b" : "a"))],
  "1M one-character lines, a b c reordered": [lines(TWO_MB / 2 - 1, (i) => "abc"[i % 3]!), lines(TWO_MB / 2 - 1, (i) => "acb"[i % 3]!)],
  "25k lines, every line changed": [lines(25_000, (i) => padded(`old ${i} `, "x")), lines(25_000, (i) => padded(`new ${i} `, "y"))],
  "25k lines, every 10th changed": [lines(25_000, (i) => padded(`line ${i} `, "x")), lines(25_000, (i) => (i % 10 ? padded(`line ${i} `, "x") : `changed ${i}`))],
  "19k lines, every 20th changed": [lines(19_000, (i) => padded(`line ${i} `, "x")), lines(19_000, (i) => (i % 20 ? padded(`line ${i} `, "x") : `changed ${i}`))],
  "300k short lines, every line changed": [lines(300_000, (i) => `o${i}`), lines(300_000, (i) => `n${i}`)],
  "one 2 MB line each": ["x".repeat(TWO_MB), "y".repeat(TWO_MB)],
  "25k lines, one line edited": [lines(25_000, (i) => padded(`line ${i} `, "x")), lines(25_000, (i) => (i === 12_000 ? "edited" : padded(`line ${i} `, "x")))],
  "10k lines, 180 lines changed": [lines(10_000, (i) => padded(`line ${i} `, "x")), lines(10_000, (i) => (i % 55 ? padded(`line ${i} `, "x") : `changed ${i}`))],
};

let worst = 0;
for (const [name, [before, after]] of Object.entries(CASES)) {
  const started = performance.now();
  let outcome: string;
  try {
    const { patch } = diffSources("v1/index.html", "v2/index.html", before, after);
    outcome = `diffed, ${patch.hunks.length} hunks`;
  } catch (error) {
    outcome = `refused: ${(error as Error).message.slice(0, 70)}`;
  }
  const ms = performance.now() - started;
  worst = Math.max(worst, ms);
  console.log(`${name.padEnd(44)} ${ms.toFixed(0).padStart(5)} ms  ${outcome}`);
}
console.log(`longest: ${worst.toFixed(0)} ms`);
