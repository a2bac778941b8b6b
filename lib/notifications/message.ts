// The notification email (issue 33): plain text and a simple HTML part, built from notices. Everything a
// commenter wrote (and every title) is text: escaped in the HTML part, never markup.
import type { Notice } from "./notices";

export type DigestEmail = { subject: string; text: string; html: string };

export type DigestInput = {
  notices: Notice[];
  /** The drop's dashboard page (its comments tab) for a slug. */
  dropPageUrl: (slug: string) => string;
  unsubscribeUrl: string;
  settingsUrl: string;
};

/** A comment longer than this is cut in the email; the dashboard shows it whole. */
export const EMAIL_COMMENT_MAX_CHARS = 1_000;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function shorten(text: string): string {
  return text.length > EMAIL_COMMENT_MAX_CHARS ? `${text.slice(0, EMAIL_COMMENT_MAX_CHARS - 1)}…` : text;
}

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? "" : "s"}`;
}

/** The notices by drop, in the order each drop first appears. */
function byDrop(notices: Notice[]): { drop: Notice["drop"]; notices: Notice[] }[] {
  const groups = new Map<string, { drop: Notice["drop"]; notices: Notice[] }>();
  for (const notice of notices) {
    const group = groups.get(notice.drop.slug) ?? { drop: notice.drop, notices: [] };
    group.notices.push(notice);
    groups.set(notice.drop.slug, group);
  }
  return [...groups.values()];
}

function subjectOf(groups: ReturnType<typeof byDrop>, count: number): string {
  // Line breaks in a title would end the header; a subject is one line.
  const title = (groups[0]!.drop.title || groups[0]!.drop.slug).replace(/\s+/g, " ").trim();
  if (groups.length === 1) return count === 1 ? `New comment on “${title}”` : `${plural(count, "new comment")} on “${title}”`;
  return `${plural(count, "new comment")} on ${groups.length} of your drops`;
}

export function buildDigestEmail({ notices, dropPageUrl, unsubscribeUrl, settingsUrl }: DigestInput): DigestEmail {
  const groups = byDrop(notices);
  const text: string[] = [];
  const html: string[] = [];
  for (const { drop, notices: comments } of groups) {
    const url = dropPageUrl(drop.slug);
    text.push(`${drop.title} (${plural(comments.length, "new comment")})`, url, "");
    html.push(`<h2 style="font-size:16px;margin:16px 0 4px">${escapeHtml(drop.title)}</h2>`, `<p style="margin:0 0 8px"><a href="${escapeHtml(url)}">Open the drop's comments</a></p>`);
    for (const { comment } of comments) {
      const who = `${comment.author}${comment.replyTo ? " replied" : " wrote"}`;
      text.push(`${who}:`);
      if (comment.quote) text.push(`  > ${shorten(comment.quote).replace(/\n/g, "\n  > ")}`);
      text.push(`  ${shorten(comment.body).replace(/\n/g, "\n  ")}`, "");
      html.push(
        `<div style="margin:0 0 12px"><p style="margin:0;color:#555">${escapeHtml(who)}:</p>`,
        comment.quote ? `<blockquote style="margin:4px 0;padding-left:8px;border-left:3px solid #ccc;color:#555;white-space:pre-wrap">${escapeHtml(shorten(comment.quote))}</blockquote>` : "",
        `<p style="margin:4px 0;white-space:pre-wrap">${escapeHtml(shorten(comment.body))}</p></div>`,
      );
    }
  }
  const footer = `You get these emails because comment notifications are on for your htmldrop account. Settings: ${settingsUrl}\nUnsubscribe: ${unsubscribeUrl}`;
  text.push("--", footer);
  html.push(
    `<hr style="border:0;border-top:1px solid #ddd;margin:16px 0">`,
    `<p style="font-size:12px;color:#555">You get these emails because comment notifications are on for your htmldrop account. ` +
      `<a href="${escapeHtml(settingsUrl)}">Settings</a> · <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`,
  );
  return {
    subject: subjectOf(groups, notices.length),
    text: text.join("\n"),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:14px;line-height:1.4;color:#111">${html.join("")}</body></html>`,
  };
}
