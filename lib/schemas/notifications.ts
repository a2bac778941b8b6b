// The account's notification settings as the API shows and changes them (issue 33).
import { z } from "zod";

export const notificationSettingsSchema = z
  .object({
    comments: z.boolean().describe("Email the owner about comments by others on their drops (batched: comments within about a minute are one email). On by default; an email's unsubscribe link turns it off."),
    email: z.string().nullable().describe("Where the emails go: the address the account's sign-in provider verified; null when none did."),
    email_configured: z.boolean().describe("Whether this instance sends email at all (its operator set SMTP_URL and MAIL_FROM). Without it the notices appear only on the dashboard."),
  })
  .describe("NotificationSettings");

export const patchNotificationSettingsBodySchema = z.strictObject({
  comments: z.boolean().optional().describe("true or false turns comment emails on or off."),
});

export type NotificationSettingsJson = z.infer<typeof notificationSettingsSchema>;
