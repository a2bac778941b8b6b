// Sends mail through SMTP_URL with nodemailer, one transport per process. Each step has a short timeout,
// so a send always ends well within the claim's lease (lib/notifications/worker.ts). nodemailer is loaded
// with the first mail: a server without SMTP_URL, and every start, need none of its modules.
import type { Transporter } from "nodemailer";
import { getConfig } from "@/lib/config";

export const SEND_TIMEOUT_MS = 15_000;

const MAILER_KEY = Symbol.for("htmldrop.mailer");
type MailerHolder = { [MAILER_KEY]?: Promise<Transporter> };

function transport(): Promise<Transporter> {
  const mail = getConfig().mail;
  if (mail === null) throw new Error("SMTP_URL and MAIL_FROM are not set");
  const holder = globalThis as MailerHolder;
  return (holder[MAILER_KEY] ??= import("nodemailer").then(({ default: nodemailer }) =>
    nodemailer.createTransport(
      { url: mail.smtpUrl, connectionTimeout: SEND_TIMEOUT_MS, greetingTimeout: SEND_TIMEOUT_MS, socketTimeout: SEND_TIMEOUT_MS },
      { from: mail.from },
    ),
  ));
}

export type OutgoingEmail = { to: string; subject: string; text: string; html: string; headers: Record<string, string> };

export async function sendEmail(email: OutgoingEmail): Promise<void> {
  await (await transport()).sendMail(email);
}
