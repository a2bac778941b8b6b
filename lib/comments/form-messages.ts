// What the viewer page says about its comment form, in one catalog shared by the form route (the
// redirect's ?comment_error=…) and the page's script (the JSON post's Error body), so a viewer reads
// the same sentence with or without JavaScript. No server imports: the client component uses it too.

/** What the viewer page says after a form post (?comment_error=…), by outcome. */
export const COMMENT_FORM_ERRORS = {
  invalid: "The comment was not posted: write something (at most 4,000 characters, a quote of at most 20 lines), and a name if you are not signed in.",
  owner_name: "The comment was not posted: that name is, or looks like, the drop owner's. Choose another.",
  limited: "Too many comments for now. Wait a few minutes, then try again.",
  closed: "Comments are not open on this drop.",
  unavailable: "Comments cannot be posted right now. Try again in a few seconds.",
} as const;

export type CommentFormError = keyof typeof COMMENT_FORM_ERRORS;

/** What the page says once a form post went through (?comment=posted). */
export const COMMENT_POSTED_NOTICE = "Your comment was posted.";

/** What a reply form says once the page's script posted it. */
export const REPLY_POSTED_NOTICE = "Your reply was posted.";

export function commentFormError(value: unknown): CommentFormError | null {
  return typeof value === "string" && Object.hasOwn(COMMENT_FORM_ERRORS, value) ? (value as CommentFormError) : null;
}

/** The catalog entry for an Error body's code and details (the route's ApiError, or the JSON the page got back). */
export function commentFormOutcome(error: { code: string; details?: Record<string, unknown> | null }): CommentFormError {
  if (error.code === "rate_limited" || error.code === "quota_exceeded") return "limited";
  if (error.code === "service_unavailable" || error.code === "internal_error") return "unavailable";
  if (error.code === "forbidden" || error.code === "not_found" || error.code === "version_not_found") return "closed";
  return error.details?.reason === "owner_name" ? "owner_name" : "invalid";
}
