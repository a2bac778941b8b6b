// A real SMTP server on loopback (the smtp-server package) that parses every message it accepts with
// mailparser, for tests of the notification emails.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export type SmtpReceiver = {
  url: string;
  received: ParsedMail[];
  /** Messages held unanswered (holdNext), as a server that stalls mid-transaction does. */
  held: number;
  /** The next message is read but never answered, so its sender waits until it gives up or dies. */
  holdNext(): void;
  /** The raw value of a header of a received message (mailparser turns List-* headers into objects). */
  header(mail: ParsedMail, name: string): string | undefined;
  close(): Promise<void>;
};

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ParsedMail[] = [];
  const stalled: (() => void)[] = [];
  let hold = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      if (hold) {
        hold = false;
        stream.resume();
        stalled.push(() => callback(new Error("held")));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // A sender killed mid-send (as a test does on purpose) resets its connection: the server emits that as
  // an error, which unheard would be an uncaught exception in the test run. The tests check what arrived.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") console.error("smtp receiver:", error);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get held() {
      return stalled.length;
    },
    holdNext: () => void (hold = true),
    header: (mail, name) => mail.headerLines.find((line) => line.key === name.toLowerCase())?.line.replace(/^[^:]+:\s*/, "").replace(/\r?\n\s+/g, " "),
    close: () => {
      for (const answer of stalled.splice(0)) answer();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
