// What the command prints. Results go to stdout, so `URL=$(htmldrop publish x.html)` gets the URL
// alone; progress, notes and errors go to stderr. Colour only on a terminal that wants it
// (tty's hasColors() honours NO_COLOR, FORCE_COLOR and TERM=dumb).
import { styleText } from "node:util";

type Style = Parameters<typeof styleText>[0];

function hasColours(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY && stream.hasColors?.());
}

function paint(stream: NodeJS.WriteStream, style: Style, text: string): string {
  return hasColours(stream) ? styleText(style, text, { validateStream: false }) : text;
}

/** A line of the command's result, on stdout. */
export function print(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/** A note for the person at the terminal, on stderr. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

export function printError(message: string): void {
  process.stderr.write(`${paint(process.stderr, "red", "htmldrop:")} ${message}\n`);
}

export const emphasis = (text: string) => paint(process.stdout, "bold", text);
export const dim = (text: string) => paint(process.stdout, "dim", text);
export const noteEmphasis = (text: string) => paint(process.stderr, "bold", text);

/** A unified diff, its added and removed lines coloured on a terminal. */
export function printDiff(diff: string): void {
  const lines = diff.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    if (line.startsWith("+++") || line.startsWith("---")) print(paint(process.stdout, "bold", line));
    else if (line.startsWith("+")) print(paint(process.stdout, "green", line));
    else if (line.startsWith("-")) print(paint(process.stdout, "red", line));
    else if (line.startsWith("@@")) print(paint(process.stdout, "cyan", line));
    else print(line);
  }
}

export function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}

/** Columns padded to their widest cell; the last column is left ragged. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join("  ").trimEnd();
  print(dim(line(header)));
  for (const row of rows) print(line(row));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Times in UTC, the same for everyone reading a CI log. */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A progress line on stderr: redrawn in place on a terminal, said once in a log. */
export function uploadProgress(label: string, total: number): { update(sent: number): void; done(): void } {
  const size = formatBytes(total);
  if (!process.stderr.isTTY) {
    note(`Uploading ${label} (${size})…`);
    return { update() {}, done() {} };
  }
  let shown = -1;
  return {
    update(sent) {
      const percent = Math.floor((sent / total) * 100);
      if (percent === shown) return;
      shown = percent;
      process.stderr.write(`\rUploading ${label}: ${percent}% of ${size}`);
    },
    done() {
      process.stderr.write(`\rUploading ${label}: 100% of ${size}\n`);
    },
  };
}
