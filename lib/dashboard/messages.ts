/** Notices the dashboard shows after a redirect (`?notice=<key>`), in one catalog so tests can assert them. */
export const DASHBOARD_NOTICES = {
  dropDeleted: "The drop was deleted.",
  versionDeleted: "The version was deleted.",
  tokenRevoked: "Token revoked: it no longer works on the API or MCP.",
  dropCreated: "Drop published as version 1. Share its link below.",
  patternAdded: "Pattern added. Your agents now see it with the others; you can keep editing it below.",
  patternAddedOverBuiltin: "Pattern added. It replaces the built-in pattern of the same name for your agents; you can keep editing it below.",
  patternReplaced: "Pattern saved. It replaces your earlier version; your agents get this one from now on.",
  patternDeleted: "Pattern deleted. Your agents no longer see it.",
  teamDeleted: "Team deleted. Drops shared with it no longer admit its members through it.",
  teamLeft: "You left the team. Drops shared with it no longer admit you through it.",
  webhookDeleted: "Webhook endpoint deleted: nothing more is sent to it.",
} as const;

export type DashboardNoticeKey = keyof typeof DASHBOARD_NOTICES;

export function dashboardNotice(value: unknown): string | null {
  return typeof value === "string" && Object.hasOwn(DASHBOARD_NOTICES, value) ? DASHBOARD_NOTICES[value as DashboardNoticeKey] : null;
}

/** Results of the dashboard's forms, shown in their live regions. */
export const DASHBOARD_MESSAGES = {
  signedOut: "Your session has ended. Sign in again and retry.",
  dropNotFound: "No such drop in your account.",
  tokenNotFound: "No such token in your account.",
  unexpected: "Something went wrong on the server. Please try again.",
  notAForm: "The form was not sent as the page sends it. Reload the page and retry.",
  saved: "Changes saved.",
  nothingChanged: "Nothing changed.",
  passcodeSet: "Passcode set: viewers now need it to open the drop.",
  passcodeRemoved: "Passcode removed: the drop is open to anyone with the link.",
  passcodeMissing: "Enter a passcode to set, or use “Remove passcode”.",
  tokenCreated: "Token created. Copy it now: it is shown only this once.",
  webhookCreated: "Endpoint added. Copy its signing secret now: it is shown only this once.",
  webhookEnabled: "Endpoint enabled again: new events go to it, and the deliveries that waited are sent.",
  webhookNotFound: "No such webhook endpoint in your account.",
  webhookRefused: "The endpoint was not added: see the field marked below.",
  expirySet: "Expiry saved.",
  expiryRemoved: "Expiry removed: the link works until you delete the drop.",
  expiryChoiceMissing: "Choose when the link should stop working.",
  expiryCustomMissing: "Enter a date and time, or choose one of the other options.",
  expiryCustomInvalid: "That date and time could not be read. Pick it with the date picker, or type it like 2026-12-31T18:00.",
  expiryInPast: "That time has already passed. Pick a time in the future; to stop sharing now, delete the drop or set a passcode.",
  commentPolicySaved: "Saved: the comment setting now applies on the viewer page.",
  commentPolicyMissing: "Choose who may comment.",
  commentDefaultSaved: "Saved: drops you create from now on without choosing, here or from an agent, start with this comment setting.",
  indexableOn: "Saved: search engines may now index this drop.",
  indexableOff: "Saved: search engines are asked not to index this drop.",
  commentNotFound: "No such comment on this drop: it may have been deleted.",
  commentResolved: "Comment resolved.",
  commentReopened: "Comment reopened.",
  replyPosted: "Reply posted.",
  replyMissing: "Write a reply first.",
  commentDeleted: "Comment deleted.",
  expiryTooFar: "That is more than 10 years ahead. Pick an earlier date.",
  titleMissing: "Give the drop a title.",
  htmlMissing: "Choose an .html file, drop one on the page, or paste HTML.",
  htmlBoth: "Choose a file or paste HTML, not both: clear one of them.",
  publishRefused: "The drop was not published: see the field marked below.",
  versionRefused: "The version was not published: see the field marked below.",
  patternRefused: "The pattern was not saved: see the field marked below.",
  patternNotFound: "No such pattern in your account.",
  builtinPatternNotFound: "There is no built-in pattern of that name.",
  patternNameMissing: "Give the pattern a name, such as weekly-report.",
  patternMarkdownMissing: "Choose a .md file, drop one on the page, or paste the pattern's Markdown.",
  patternMarkdownBoth: "Choose a Markdown file or paste the Markdown, not both: clear one of them.",
  accessSaved: "Saved: the new access level applies to the drop's link now.",
  accessMissing: "Choose who can open the drop.",
  personMissing: "Enter the person's login or email.",
  teamMissing: "Choose one of your teams.",
  memberAdded: "Added to the list.",
  memberPending: "Added. They are admitted once they sign in with that login or email.",
  roleSaved: "Role saved.",
  memberRemoved: "Removed from the list.",
  memberNotFound: "That entry is no longer on the list: reload the page.",
  teamCreated: "Team made. Add its members below.",
  teamNameMissing: "Give the team a name.",
  teamNotFound: "No such team among yours.",
  teamMemberAdded: "Added to the team.",
  teamMemberRemoved: "Removed from the team.",
  patternTemplateBoth: "Choose a template file or paste the template, not both: clear one of them.",
} as const;

/** Search engine indexing, as the New drop form and the drop's page both offer it. */
export const INDEXING_WORDING = {
  choice: "Let search engines index this drop",
  byDefault: "By default search engines are asked not to list this drop (X-Robots-Tag: noindex). People with the link can always open it.",
} as const;
