// Sends mail through SMTP_URL with nodemailer, one transport per process. Each step has a short timeout,
// so a send always ends well within the claim's lease (lib/notifications/worker.ts).
import nodemailer, { type Transporter } from "nodemailer";
import { getConfig } from "@/lib/config";

export const SEND_TIMEOUT_MS = 15_000;

const MAILER_KEY = Symbol.for("htmldrop.mailer");
type MailerHolder = { [MAILER_KEY]?: Transporter };

function transport(): Transporter {
  const mail = getConfig().mail;
  if (mail === null) throw new Error("SMTP_URL and MAIL_FROM are not set");
  const holder = globalThis as MailerHolder;
  return (holder[MAILER_KEY] ??= nodemailer.createTransport(
    { url: mail.smtpUrl, connectionTimeout: SEND_TIMEOUT_MS, greetingTimeout: SEND_TIMEOUT_MS, socketTimeout: SEND_TIMEOUT_MS },
    { from: mail.from },
  ));
}

export type OutgoingEmail = { to: string; subject: string; text: string; html: string; headers: Record<string, string> };

export async function sendEmail(email: OutgoingEmail): Promise<void> {
  await transport().sendMail(email);
}
