"use server";

// The dashboard's writes. Each one: the session's account, the shared schema, ONE lib service (the same
// ones REST and MCP call, so every write counts against the account's limits), then a FormState or redirect;
// dashboardAction (lib/dashboard/action.ts) runs that skeleton, each action here only its own steps.
import { setDefaultCommentPolicy } from "@/lib/accounts/comment-default";
import { createToken } from "@/lib/accounts/create-token";
import { setCommentNotifications } from "@/lib/notifications/settings";
import { FULL_GRANT } from "@/lib/accounts/credentials";
import { revokeToken } from "@/lib/accounts/tokens";
import { discoveryFacts } from "@/lib/discovery/facts";
import { deleteComment, postOwnerComment, setCommentResolved } from "@/lib/comments/comments";
import { createDrop, deleteDrop, deleteVersion, patchDrop, replaceDrop, setPasscode } from "@/lib/drops";
import { builtinPatterns, deletePattern, savePattern } from "@/lib/patterns";
import { dashboardAction, refused } from "@/lib/dashboard/action";
import { keepingPosted, ok, parseForm, toFormState } from "@/lib/dashboard/form-state";
import { patchInputFromForm } from "@/lib/dashboard/forms";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import { dashboardDropPath } from "@/lib/dashboard/paths";
import { patternErrorState, patternSaveFromForm, patternValuesFromForm, savedNotice, type PatternState } from "@/lib/dashboard/pattern-form";
import { baseVersionFromForm, createInputFromForm, publishErrorState, replaceInputFromForm, valuesFromForm, type PublishState } from "@/lib/dashboard/publish-form";
import { tokenErrorState, tokenRequestFromForm, tokenSnippets, type NewTokenState } from "@/lib/dashboard/token-form";
import { commentIdSchema, commentPolicySchema, commentTextSchema } from "@/lib/schemas/comments";
import { tokenIdSchema } from "@/lib/schemas/accounts";
import { passcodeSchema, versionNumberSchema } from "@/lib/schemas/drops";
import { patternNameSchema } from "@/lib/schemas/patterns";
import { formText as text } from "@/lib/dashboard/text-upload";

function publishError(error: unknown, form: FormData): PublishState {
  const values = valuesFromForm(form);
  return { status: "error", ...publishErrorState(error, values), values };
}

/** "New drop": POST /api/drops's service and schema; on success the owner lands on the new drop's page. */
export const createDropAction = dashboardAction<PublishState>(async (owner, form) => {
  const { slug } = (await createDrop(owner, await createInputFromForm(form))).body;
  return { redirectTo: `${dashboardDropPath(slug)}?notice=dropCreated`, revalidate: ["/dashboard"] };
}, publishError);

/**
 * "New version" and the editor: PUT /api/drops/{slug}'s service and schema; the page's version list shows
 * it at once. The editor names the version its text came from, which PUT checks as it does If-Match.
 */
export const publishVersionAction = dashboardAction<PublishState>(async (owner, form) => {
  const slug = text(form, "slug");
  const base = baseVersionFromForm(form);
  const input = await replaceInputFromForm(form);
  const published = (await replaceDrop(owner, slug, input, base)).latest_version;
  return { state: { ...ok(`Version ${published} published${input.context ? " with its context" : ""}. It is now the latest.`), published }, revalidate: [dashboardDropPath(slug)] };
}, publishError);

export const editDropAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const input = patchInputFromForm(form);
  if (Object.keys(input).length === 0) return { state: ok(DASHBOARD_MESSAGES.nothingChanged) };
  await patchDrop(owner, slug, input);
  return { state: ok(DASHBOARD_MESSAGES.saved), revalidate: [dashboardDropPath(slug)] };
}, keepingPosted(["title", "description", "tags"]));

export const setPasscodeAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const remove = text(form, "intent") === "remove";
  const passcode = remove ? "" : text(form, "passcode");
  if (!remove && passcode === "") return refused(DASHBOARD_MESSAGES.passcodeMissing);
  await setPasscode(owner, slug, parseForm(passcodeSchema, passcode));
  return { state: ok(remove ? DASHBOARD_MESSAGES.passcodeRemoved : DASHBOARD_MESSAGES.passcodeSet), revalidate: [dashboardDropPath(slug)] };
});

export const deleteVersionAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  await deleteVersion(owner, slug, parseForm(versionNumberSchema, text(form, "version")));
  return { redirectTo: `${dashboardDropPath(slug)}?notice=versionDeleted` };
});

export const deleteDropAction = dashboardAction(async (owner, form) => {
  await deleteDrop(owner, text(form, "slug"));
  return { redirectTo: "/dashboard?notice=dropDeleted" };
});

export const revokeTokenAction = dashboardAction(
  async (owner, form) => {
    const id = tokenIdSchema.safeParse(text(form, "id"));
    if (!id.success) return refused(DASHBOARD_MESSAGES.tokenNotFound);
    await revokeToken(owner, id.data, FULL_GRANT);
    return { redirectTo: "/dashboard/tokens?notice=tokenRevoked" };
  },
  (error) => toFormState(error, DASHBOARD_MESSAGES.tokenNotFound),
);

/**
 * "New token": the signed-in owner holds every scope, drop and lifetime of the account, so any request
 * within the account is allowed; it counts as a write, as POST /api/tokens does. The secret goes back
 * to this one form state and is never stored or shown again.
 */
export const createTokenAction = dashboardAction<NewTokenState>(async (owner, form) => {
  const created = await createToken({ userId: owner, ...FULL_GRANT }, tokenRequestFromForm(form));
  const state = { ...ok(DASHBOARD_MESSAGES.tokenCreated), created: { ...created, snippets: tokenSnippets(discoveryFacts(), created.token) } };
  return { state, revalidate: ["/dashboard/tokens"] };
}, tokenErrorState);

/** Pages that show a comment: its drop's page and the inbox across all drops. */
function commentPages(slug: string): string[] {
  return [dashboardDropPath(slug), "/dashboard/comments"];
}

const commentError = (error: unknown) => toFormState(error, DASHBOARD_MESSAGES.commentNotFound);

export const setCommentPolicyAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const policy = commentPolicySchema.safeParse(text(form, "comments"));
  if (!policy.success) return refused(DASHBOARD_MESSAGES.commentPolicyMissing);
  await patchDrop(owner, slug, { comments: policy.data });
  return { state: ok(DASHBOARD_MESSAGES.commentPolicySaved), revalidate: commentPages(slug) };
});

/** The account page's default for the drops the account creates without choosing (the New drop form starts with it). */
export const setDefaultCommentPolicyAction = dashboardAction(async (owner, form) => {
  const policy = commentPolicySchema.safeParse(text(form, "comments"));
  if (!policy.success) return refused(DASHBOARD_MESSAGES.commentPolicyMissing);
  await setDefaultCommentPolicy(owner, policy.data);
  return { state: ok(DASHBOARD_MESSAGES.commentDefaultSaved), revalidate: ["/dashboard/account", "/dashboard/new"] };
});

/** The account page's email notifications; the checkbox posts "on" when ticked and nothing when not. */
export const setCommentEmailsAction = dashboardAction(async (owner, form) => {
  const on = text(form, "comment_emails") === "on";
  await setCommentNotifications(owner, on);
  return { state: ok(on ? DASHBOARD_MESSAGES.commentEmailsOn : DASHBOARD_MESSAGES.commentEmailsOff), revalidate: ["/dashboard/account"] };
});

/** The checkbox posts "on" when ticked and nothing when not: either way the form states the whole setting. */
export const setIndexableAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const indexable = text(form, "indexable") === "on";
  await patchDrop(owner, slug, { indexable });
  return { state: ok(indexable ? DASHBOARD_MESSAGES.indexableOn : DASHBOARD_MESSAGES.indexableOff), revalidate: [dashboardDropPath(slug)] };
});

export const resolveCommentAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const id = commentIdSchema.safeParse(text(form, "id"));
  if (!id.success) return refused(DASHBOARD_MESSAGES.commentNotFound);
  const resolved = text(form, "intent") !== "reopen";
  await setCommentResolved(owner, slug, id.data, resolved);
  return { state: ok(resolved ? DASHBOARD_MESSAGES.commentResolved : DASHBOARD_MESSAGES.commentReopened), revalidate: commentPages(slug) };
}, commentError);

export const replyToCommentAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const id = commentIdSchema.safeParse(text(form, "id"));
  if (!id.success) return refused(DASHBOARD_MESSAGES.commentNotFound);
  if (text(form, "body").trim() === "") return refused(DASHBOARD_MESSAGES.replyMissing);
  await postOwnerComment(owner, slug, { body: parseForm(commentTextSchema, text(form, "body")), reply_to: id.data });
  return { state: ok(DASHBOARD_MESSAGES.replyPosted), revalidate: commentPages(slug) };
}, keepingPosted(["body"], DASHBOARD_MESSAGES.commentNotFound));

export const deleteCommentAction = dashboardAction(async (owner, form) => {
  const slug = text(form, "slug");
  const id = commentIdSchema.safeParse(text(form, "id"));
  if (!id.success) return refused(DASHBOARD_MESSAGES.commentNotFound);
  await deleteComment(owner, slug, id.data);
  return { state: ok(DASHBOARD_MESSAGES.commentDeleted), revalidate: commentPages(slug) };
}, commentError);

const PATTERNS_PATH = "/dashboard/patterns";

/**
 * "Save pattern": PUT /api/patterns/{name}'s schema and service. On success the owner lands on the
 * pattern's edit form, told whether it was added or replaced.
 */
export const savePatternAction = dashboardAction<PatternState>(
  async (owner, form) => {
    const { name, input } = await patternSaveFromForm(form);
    const { created } = await savePattern(owner, name, input);
    const notice = savedNotice(created, builtinPatterns().has(name));
    return { redirectTo: `${PATTERNS_PATH}?edit=${encodeURIComponent(name)}&notice=${notice}`, revalidate: [PATTERNS_PATH] };
  },
  (error, form) => {
    const values = patternValuesFromForm(form);
    return { status: "error", ...patternErrorState(error, values), values };
  },
);

/** DELETE /api/patterns/{name}'s service: only the account's own; a built-in one of the same name shows again. */
export const deletePatternAction = dashboardAction(
  async (owner, form) => {
    const name = patternNameSchema.safeParse(text(form, "name"));
    if (!name.success) return refused(DASHBOARD_MESSAGES.patternNotFound);
    await deletePattern(owner, name.data);
    return { redirectTo: `${PATTERNS_PATH}?notice=patternDeleted`, revalidate: [PATTERNS_PATH] };
  },
  (error) => toFormState(error, DASHBOARD_MESSAGES.patternNotFound),
);
