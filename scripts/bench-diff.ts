// `npm run bench:diff`: the longest a version diff (lib/drops/diff-text.ts) holds the event loop (the
// shortest of five runs of each), on
// pairs of 2 MB documents built to be slow for Myers' algorithm, each either diffed or refused as too
// large; and what the compare page's worker spends on the same pairs and on pages as people write them:
// its bounded source diff with the word marks (compare-diff.ts, "source") and the rendered view's
// changed blocks (compare-blocks.ts, "rendered").
import { diffSources } from "@/lib/drops/diff-text";
import { renderedChanges } from "@/lib/serving/compare-blocks";
import { compareSources } from "@/lib/serving/compare-diff";

const TWO_MB = 2_097_152;

function lines(count: number, line: (index: number) => string): string {
  return Array.from({ length: count }, (_, index) => line(index)).join("\n");
}

const padded = (text: string, fill: string) => text.padEnd(80, fill);
/** A report of `rows` table rows, one figure of which is `figure`, with or without line breaks. */
const report = (rows: number, figure: (index: number) => string, separator = "\n") =>
  `<!doctype html><html lang="en"><body><h1>Report</h1><table>${separator}` +
  Array.from({ length: rows }, (_, index) => `<tr><td>Region ${index}</td><td>${figure(index)}</td><td>Revenue after the sale of the old warehouse, before the new contracts.</td></tr>`).join(separator) +
  `${separator}</table></body></html>`;
const image = (word: string) => `<!doctype html><h1>Chart</h1><img alt="" src="data:image/png;base64,${"QUJD".repeat(520_000)}"><p>${word}</p>`;
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
  "2 MB report, one figure changed": [report(14_000, String), report(14_000, (i) => (i === 7_000 ? "x" : String(i)))],
  "1,200-row report, one figure changed": [report(1_200, String), report(1_200, (i) => (i === 600 ? "x" : String(i)))],
  "1,200-row one-line report, one figure changed": [report(1_200, String, ""), report(1_200, (i) => (i === 600 ? "x" : String(i)), "")],
  "1,200-row report, 190 figures changed": [report(1_200, String), report(1_200, (i) => (i % 6 ? String(i) : `${i}.5`))],
  "2 MB page of an image, one word changed": [image("before"), image("after")],
};

/** The result and the shortest of five runs: the box is shared, and the shortest is the work's own cost. */
function timed<T>(run: () => T): [T, number] {
  let shortest = Infinity;
  let result: T;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    result = run();
    shortest = Math.min(shortest, performance.now() - started);
  }
  return [result!, shortest];
}

let worst = { diff: 0, source: 0, rendered: 0 };
console.log(`${"".padEnd(44)} ${"diff".padStart(8)} ${"source".padStart(8)} ${"rendered".padStart(8)}`);
for (const [name, [before, after]] of Object.entries(CASES)) {
  const [outcome, diff] = timed(() => {
    try {
      return `diffed, ${diffSources("v1/index.html", "v2/index.html", before, after).patch.hunks.length} hunks`;
    } catch (error) {
      return `refused: ${(error as Error).message.slice(0, 50)}`;
    }
  });
  const [, source] = timed(() => compareSources(1, 2, before, after));
  const [marked, rendered] = timed(() => renderedChanges(before, after));
  worst = { diff: Math.max(worst.diff, diff), source: Math.max(worst.source, source), rendered: Math.max(worst.rendered, rendered) };
  const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`;
  console.log(`${name.padEnd(44)} ${ms(diff)} ${ms(source)} ${ms(rendered)}  ${outcome}; ${marked.changes === null ? marked.reason : `${marked.changes.length} changed blocks`}`);
}
console.log(`longest: diff ${worst.diff.toFixed(0)} ms, compare page source ${worst.source.toFixed(0)} ms, rendered ${worst.rendered.toFixed(0)} ms`);
