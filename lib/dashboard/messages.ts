/** Notices the dashboard shows after a redirect (`?notice=<key>`), in one catalog so tests can assert them. */
export const DASHBOARD_NOTICES = {
  dropDeleted: "The drop was deleted.",
  versionDeleted: "The version was deleted.",
  tokenRevoked: "Token revoked: it no longer works on the API or MCP.",
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
} as const;
