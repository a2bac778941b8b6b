"use server";

// The dashboard's writes. Each one: the session's account, the shared schema, ONE lib service (the same
// ones REST and MCP call, so every write counts against the account's limits), then a FormState or redirect.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { createToken } from "@/lib/accounts/create-token";
import { FULL_GRANT, revokeToken } from "@/lib/accounts/tokens";
import { getSessionUser } from "@/lib/auth/session";
import { discoveryFacts } from "@/lib/discovery/facts";
import { deleteComment, postOwnerComment, setCommentResolved } from "@/lib/comments/comments";
import { createDrop, deleteDrop, deleteVersion, patchDrop, replaceDrop, setPasscode } from "@/lib/drops";
import { builtinPatterns, deletePattern, savePattern } from "@/lib/patterns";
import { expiryInputFromForm, plainExpiryError } from "@/lib/dashboard/expiry-form";
import { ok, toFormState, type FormState } from "@/lib/dashboard/form-state";
import { patchInputFromForm } from "@/lib/dashboard/forms";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import { patternErrorState, patternSaveFromForm, patternValuesFromForm, savedNotice, type PatternState } from "@/lib/dashboard/pattern-form";
import { createInputFromForm, publishErrorState, replaceInputFromForm, valuesFromForm, type PublishState } from "@/lib/dashboard/publish-form";
import { tokenRequestFromForm, tokenSnippets, type NewTokenState } from "@/lib/dashboard/token-form";
import { commentIdSchema, commentPolicySchema, commentTextSchema } from "@/lib/schemas/comments";
import { tokenIdSchema } from "@/lib/schemas/accounts";
import { passcodeSchema, versionNumberSchema } from "@/lib/schemas/drops";
import { patternNameSchema } from "@/lib/schemas/patterns";
import { parseInput } from "@/lib/schemas/errors";

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * The account an action acts for (its user id), or the refusal the action answers with instead.
 * Not exported: every export of this file becomes a server action.
 */
async function ownerOf(form: unknown): Promise<string | FormState> {
  const user = await getSessionUser();
  if (!user) return { status: "error", message: DASHBOARD_MESSAGES.signedOut };
  // An action is a public endpoint: a hand-made request can pass anything where the page passes its form.
  if (!(form instanceof FormData)) return { status: "error", message: DASHBOARD_MESSAGES.notAForm };
  return user.userId;
}

function dropPath(slug: string): string {
  return `/dashboard/drops/${encodeURIComponent(slug)}`;
}

/** "New drop": POST /api/drops's service and schema; on success the owner lands on the new drop's page. */
export async function createDropAction(_previous: PublishState, form: FormData): Promise<PublishState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  let slug: string;
  try {
    slug = (await createDrop(owner, await createInputFromForm(form))).body.slug;
  } catch (error) {
    const values = valuesFromForm(form);
    return { status: "error", ...publishErrorState(error, values.html), values };
  }
  revalidatePath("/dashboard");
  redirect(`${dropPath(slug)}?notice=dropCreated`);
}

/** "New version": PUT /api/drops/{slug}'s service and schema; the page's version list shows it at once. */
export async function publishVersionAction(_previous: PublishState, form: FormData): Promise<PublishState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  let published: number;
  let withContext: boolean;
  try {
    const input = await replaceInputFromForm(form);
    withContext = Boolean(input.context);
    published = (await replaceDrop(owner, slug, input)).latest_version;
  } catch (error) {
    const values = valuesFromForm(form);
    return { status: "error", ...publishErrorState(error, values.html), values };
  }
  revalidatePath(dropPath(slug));
  return ok(`Version ${published} published${withContext ? " with its context" : ""}. It is now the latest.`);
}

export async function editDropAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  try {
    const input = patchInputFromForm(form);
    if (Object.keys(input).length === 0) return ok(DASHBOARD_MESSAGES.nothingChanged);
    await patchDrop(owner, slug, input);
  } catch (error) {
    return toFormState(error);
  }
  revalidatePath(dropPath(slug));
  return ok(DASHBOARD_MESSAGES.saved);
}

export async function setPasscodeAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  const remove = text(form, "intent") === "remove";
  const passcode = remove ? "" : text(form, "passcode");
  if (!remove && passcode === "") return { status: "error", message: DASHBOARD_MESSAGES.passcodeMissing };
  try {
    await setPasscode(owner, slug, parseInput(passcodeSchema, passcode));
  } catch (error) {
    return toFormState(error);
  }
  revalidatePath(dropPath(slug));
  return ok(remove ? DASHBOARD_MESSAGES.passcodeRemoved : DASHBOARD_MESSAGES.passcodeSet);
}

export async function setExpiryAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  const remove = text(form, "intent") === "remove";
  try {
    await patchDrop(owner, slug, remove ? { expires_at: null } : expiryInputFromForm(form));
  } catch (error) {
    return toFormState(plainExpiryError(error));
  }
  revalidatePath(dropPath(slug));
  return ok(remove ? DASHBOARD_MESSAGES.expiryRemoved : DASHBOARD_MESSAGES.expirySet);
}

export async function deleteVersionAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  try {
    await deleteVersion(owner, slug, parseInput(versionNumberSchema, text(form, "version")));
  } catch (error) {
    return toFormState(error);
  }
  redirect(`${dropPath(slug)}?notice=versionDeleted`);
}

export async function deleteDropAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  try {
    await deleteDrop(owner, text(form, "slug"));
  } catch (error) {
    return toFormState(error);
  }
  redirect("/dashboard?notice=dropDeleted");
}

export async function revokeTokenAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const id = tokenIdSchema.safeParse(text(form, "id"));
  if (!id.success) return { status: "error", message: DASHBOARD_MESSAGES.tokenNotFound };
  try {
    await revokeToken(owner, id.data);
  } catch (error) {
    return toFormState(error, DASHBOARD_MESSAGES.tokenNotFound);
  }
  redirect("/dashboard/tokens?notice=tokenRevoked");
}

/**
 * "New token": the signed-in owner holds every scope, drop and lifetime of the account, so any request
 * within the account is allowed; it counts as a write, as POST /api/tokens does. The secret goes back
 * to this one form state and is never stored or shown again.
 */
export async function createTokenAction(_previous: NewTokenState, form: FormData): Promise<NewTokenState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  let created;
  try {
    created = await createToken({ userId: owner, ...FULL_GRANT }, tokenRequestFromForm(form));
  } catch (error) {
    return toFormState(error);
  }
  revalidatePath("/dashboard/tokens");
  return { ...ok(DASHBOARD_MESSAGES.tokenCreated), created: { ...created, snippets: tokenSnippets(discoveryFacts(), created.token) } };
}

/** Pages that show a comment: its drop's page and the inbox across all drops. */
function revalidateComments(slug: string): void {
  revalidatePath(dropPath(slug));
  revalidatePath("/dashboard/comments");
}

const commentNotFound: FormState = { status: "error", message: DASHBOARD_MESSAGES.commentNotFound };

export async function setCommentPolicyAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  const policy = commentPolicySchema.safeParse(text(form, "comments"));
  if (!policy.success) return { status: "error", message: DASHBOARD_MESSAGES.commentPolicyMissing };
  try {
    await patchDrop(owner, slug, { comments: policy.data });
  } catch (error) {
    return toFormState(error);
  }
  revalidateComments(slug);
  return ok(DASHBOARD_MESSAGES.commentPolicySaved);
}

/** The checkbox posts "on" when ticked and nothing when not: either way the form states the whole setting. */
export async function setIndexableAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  const indexable = text(form, "indexable") === "on";
  try {
    await patchDrop(owner, slug, { indexable });
  } catch (error) {
    return toFormState(error);
  }
  revalidatePath(dropPath(slug));
  return ok(indexable ? DASHBOARD_MESSAGES.indexableOn : DASHBOARD_MESSAGES.indexableOff);
}

export async function resolveCommentAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  const id = commentIdSchema.safeParse(text(form, "id"));
  if (!id.success) return commentNotFound;
  const resolved = text(form, "intent") !== "reopen";
  try {
    await setCommentResolved(owner, slug, id.data, resolved);
  } catch (error) {
    return toFormState(error, DASHBOARD_MESSAGES.commentNotFound);
  }
  revalidateComments(slug);
  return ok(resolved ? DASHBOARD_MESSAGES.commentResolved : DASHBOARD_MESSAGES.commentReopened);
}

export async function replyToCommentAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  const id = commentIdSchema.safeParse(text(form, "id"));
  if (!id.success) return commentNotFound;
  if (text(form, "body").trim() === "") return { status: "error", message: DASHBOARD_MESSAGES.replyMissing };
  try {
    await postOwnerComment(owner, slug, { body: parseInput(commentTextSchema, text(form, "body")), reply_to: id.data });
  } catch (error) {
    return toFormState(error, DASHBOARD_MESSAGES.commentNotFound);
  }
  revalidateComments(slug);
  return ok(DASHBOARD_MESSAGES.replyPosted);
}

export async function deleteCommentAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const slug = text(form, "slug");
  const id = commentIdSchema.safeParse(text(form, "id"));
  if (!id.success) return commentNotFound;
  try {
    await deleteComment(owner, slug, id.data);
  } catch (error) {
    return toFormState(error, DASHBOARD_MESSAGES.commentNotFound);
  }
  revalidateComments(slug);
  return ok(DASHBOARD_MESSAGES.commentDeleted);
}

const PATTERNS_PATH = "/dashboard/patterns";

/**
 * "Save pattern": PUT /api/patterns/{name}'s schema and service. On success the owner lands on the
 * pattern's edit form, told whether it was added or replaced.
 */
export async function savePatternAction(_previous: PatternState, form: FormData): Promise<PatternState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  let saved: { name: string; created: boolean };
  try {
    const { name, input } = await patternSaveFromForm(form);
    saved = { name, created: (await savePattern(owner, name, input)).created };
  } catch (error) {
    const values = patternValuesFromForm(form);
    return { status: "error", ...patternErrorState(error, values), values };
  }
  revalidatePath(PATTERNS_PATH);
  const notice = savedNotice(saved.created, builtinPatterns().has(saved.name));
  redirect(`${PATTERNS_PATH}?edit=${encodeURIComponent(saved.name)}&notice=${notice}`);
}

/** DELETE /api/patterns/{name}'s service: only the account's own; a built-in one of the same name shows again. */
export async function deletePatternAction(_previous: FormState, form: FormData): Promise<FormState> {
  const owner = await ownerOf(form);
  if (typeof owner !== "string") return owner;
  const name = patternNameSchema.safeParse(text(form, "name"));
  if (!name.success) return { status: "error", message: DASHBOARD_MESSAGES.patternNotFound };
  try {
    await deletePattern(owner, name.data);
  } catch (error) {
    return toFormState(error, DASHBOARD_MESSAGES.patternNotFound);
  }
  revalidatePath(PATTERNS_PATH);
  redirect(`${PATTERNS_PATH}?notice=patternDeleted`);
}
