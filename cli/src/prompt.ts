// Reading from the person or a pipe: a confirmation, a passcode, or a whole document on stdin.
import { createInterface } from "node:readline";
import { Writable } from "node:stream";

/** One line from stdin (a terminal or a pipe), after `question` on stderr; "" when stdin ends first. */
export function ask(question: string, { hidden = false } = {}): Promise<string> {
  const terminal = Boolean(process.stdin.isTTY);
  process.stderr.write(question);
  // Typed characters of a hidden answer are not echoed: readline writes them to a stream that drops them.
  const output = hidden && terminal ? new Writable({ write: (_chunk, _encoding, done) => done() }) : process.stderr;
  const lines = createInterface({ input: process.stdin, output, terminal });
  return new Promise((resolve) => {
    let answer = "";
    lines.once("line", (line) => {
      answer = line;
      lines.close();
    });
    lines.once("close", () => {
      if (hidden && terminal) process.stderr.write("\n");
      resolve(answer);
    });
  });
}

export async function confirm(question: string): Promise<boolean> {
  return /^y(es)?$/i.test((await ask(`${question} [y/N] `)).trim());
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
