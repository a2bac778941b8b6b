// A real SMTP server on loopback (the smtp-server package) that parses every message it accepts with
// mailparser, for tests of the notification emails.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export type SmtpReceiver = {
  url: string;
  received: ParsedMail[];
  /** The raw value of a header of a received message (mailparser turns List-* headers into objects). */
  header(mail: ParsedMail, name: string): string | undefined;
  close(): Promise<void>;
};

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    header: (mail, name) => mail.headerLines.find((line) => line.key === name.toLowerCase())?.line.replace(/^[^:]+:\s*/, "").replace(/\r?\n\s+/g, " "),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
