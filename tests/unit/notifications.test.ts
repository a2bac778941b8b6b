// The pure parts of owner notifications (issue 33): which events make a notice, the email's text and
// escaped HTML, and the unsubscribe token's signature.
import { describe, expect, it } from "vitest";
import { buildDigestEmail, EMAIL_COMMENT_MAX_CHARS } from "@/lib/notifications/message";
import { noticeFromEvent, type Notice } from "@/lib/notifications/notices";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "@/lib/notifications/unsubscribe-token";

const SECRET = "a-secret-of-at-least-thirty-two-characters";

function commentEvent(id: number, kind: string, body = "Looks good", extra: Record<string, unknown> = {}) {
  const data = { drop: { slug: "abc", title: "Plan" }, comment: { id: `c${id}`, body, author: { name: kind === "owner" ? "alice" : "bob", kind }, ...extra } };
  return { id, type: "comment.created", data: JSON.stringify(data), createdAt: new Date(1_000 * id) };
}

function notice(id: number, slug: string, title: string, body: string, quote: string | null = null): Notice {
  return { eventId: id, at: id, drop: { slug, title }, comment: { author: "bob", body, quote, replyTo: false } };
}

const links = { dropPageUrl: (slug: string) => `https://drops.example/dashboard/drops/${slug}?tab=comments`, unsubscribeUrl: "https://drops.example/unsubscribe?token=u.s", settingsUrl: "https://drops.example/dashboard/account" };

describe("notices", () => {
  it("come from comments by anyone but the owner, and from no other event", () => {
    expect(noticeFromEvent(commentEvent(7, "account", "Hi", { quote: "the plan", reply_to: "c1" }))).toEqual({
      eventId: 7,
      at: 7_000,
      drop: { slug: "abc", title: "Plan" },
      comment: { author: "bob", body: "Hi", quote: "the plan", replyTo: true },
    });
    expect(noticeFromEvent(commentEvent(8, "guest"))?.comment.replyTo).toBe(false);
    expect(noticeFromEvent(commentEvent(9, "owner"))).toBeNull();
    expect(noticeFromEvent({ ...commentEvent(10, "account"), type: "comment.resolved" })).toBeNull();
  });
});

describe("the email", () => {
  it("says what happened on one drop, with its page, in text and in HTML that escapes everything written", () => {
    const email = buildDigestEmail({ notices: [notice(1, "abc", "A <b>bold</b> plan", `<img src=x onerror="alert('x')">`, "a & b")], ...links });
    expect(email.subject).toBe("New comment on “A <b>bold</b> plan”");
    expect(email.text).toContain("A <b>bold</b> plan (1 new comment)\nhttps://drops.example/dashboard/drops/abc?tab=comments");
    expect(email.text).toContain(`bob wrote:\n  > a & b\n  <img src=x onerror="alert('x')">`);
    expect(email.text).toContain("Unsubscribe: https://drops.example/unsubscribe?token=u.s");
    expect(email.html).toContain("A &#60;b&#62;bold&#60;/b&#62; plan");
    expect(email.html).toContain("&#60;img src=x onerror=&#34;alert(&#39;x&#39;)&#34;&#62;");
    expect(email.html).toContain("a &#38; b");
    expect(email.html).not.toMatch(/<img|<b>/);
    expect(email.html).toContain('href="https://drops.example/dashboard/drops/abc?tab=comments"');
  });

  it("counts many comments on one or several drops, keeps the subject one line, and cuts long comments", () => {
    const many = Array.from({ length: 50 }, (_, n) => notice(n, "abc", "Plan", `Point ${n}`));
    expect(buildDigestEmail({ notices: many, ...links }).subject).toBe("50 new comments on “Plan”");
    const two = buildDigestEmail({ notices: [notice(1, "abc", "Line\none", "x"), notice(2, "def", "Other", "y"), notice(3, "abc", "Line\none", "z")], ...links });
    expect(two.subject).toBe("3 new comments on 2 of your drops");
    expect(buildDigestEmail({ notices: [notice(1, "abc", "Line\r\nbreak", "x")], ...links }).subject).toBe("New comment on “Line break”");
    expect(two.text.indexOf("Line\none (2 new comments)")).toBeLessThan(two.text.indexOf("Other (1 new comment)"));
    const long = buildDigestEmail({ notices: [notice(1, "abc", "Plan", "x".repeat(EMAIL_COMMENT_MAX_CHARS + 10))], ...links });
    expect(long.text).toContain(`${"x".repeat(EMAIL_COMMENT_MAX_CHARS - 1)}…`);
    expect(long.text).not.toContain("x".repeat(EMAIL_COMMENT_MAX_CHARS));
  });
});

describe("unsubscribe tokens", () => {
  it("name their account only with the server's signature", () => {
    const token = signUnsubscribeToken(SECRET, "user_123");
    expect(verifyUnsubscribeToken(SECRET, token)).toBe("user_123");
    expect(verifyUnsubscribeToken("another-secret-of-thirty-two-characters", token)).toBeNull();
    expect(verifyUnsubscribeToken(SECRET, token.replace("user_123", "user_124"))).toBeNull();
    for (const bad of ["", ".", "user_123", "user_123.", `.${token.split(".")[1]}`, `${token}x`]) expect(verifyUnsubscribeToken(SECRET, bad), bad).toBeNull();
  });
});
