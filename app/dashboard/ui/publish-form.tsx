"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent } from "react";
import { DASHBOARD_MESSAGES, INDEXING_WORDING } from "@/lib/dashboard/messages";
import type { PublishField, PublishState } from "@/lib/dashboard/publish-form";
import type { CommentPolicy } from "@/lib/schemas/comments";
import { HTML_UPLOAD } from "@/lib/dashboard/text-upload";
import styles from "../dashboard.module.css";
import { ResultFold } from "./result-fold";
import { SubmitRow } from "./submit-row";
import { CommentPolicyChoices } from "./comment-policy-choices";
import { fieldErrors, fileProblem, sizeText, TextUploadFieldset, uploadProblemBeforeSend, usePageFileDrop, type FieldProblem } from "./text-upload-field";
import { useShownUntilNextSubmit } from "./use-until-next-submit";

type Limits = { htmlMaxBytes: number; titleMaxChars: number; descriptionMaxChars: number; passcodeMinChars: number };

type Props = {
  action: (previous: PublishState, form: FormData) => Promise<PublishState>;
  /** "create" asks for a whole drop; "version" only for a new document and its context. */
  mode: "create" | "version";
  /** The drop a new version goes to. */
  slug?: string;
  limits: Limits;
  /** "create": the comment choice it starts with, the account's default. */
  commentsDefault?: CommentPolicy;
  /**
   * Folds the form under this summary. It unfolds by itself for a file dragged onto the page and for a
   * result to show, which a post without JavaScript renders on the server.
   */
  foldedUnder?: string;
};

function htmlProblem(message: string | null): FieldProblem<PublishField> | null {
  return message === null ? null : { field: "html", message };
}

/**
 * "New drop" and "New version": a document from a chosen file, a file dropped anywhere on the page
 * (with JavaScript) or pasted text, plus its fields. Without JavaScript it is a plain multipart form;
 * with it, obvious mistakes (a file that is not HTML, one over the limit) are caught before the upload.
 */
export function PublishForm({ action, mode, slug, limits, commentsDefault = "off", foldedUnder }: Props) {
  const [state, formAction, pending] = useActionState<PublishState, FormData>(action, { status: "idle", message: "" });
  const [localError, setLocalError] = useState<FieldProblem<PublishField> | null>(null);
  const [droppedName, setDroppedName] = useState("");
  // A result the human has since acted on (a new file chosen or dropped) is no longer shown.
  const [dismissed, setDismissed] = useState<PublishState | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const shown = useShownUntilNextSubmit(state);
  const prefix = mode === "version" ? "version-" : "";

  useEffect(() => {
    if (state.status !== "ok") return;
    form.current?.reset();
    setDroppedName("");
  }, [state]);

  const { canDrop, dragging } = usePageFileDrop([
    {
      upload: HTML_UPLOAD,
      input: fileInput,
      onDrop: (file) => {
        setDroppedName(file.name);
        setLocalError(htmlProblem(fileProblem(file, HTML_UPLOAD, limits.htmlMaxBytes)));
        setDismissed(state);
      },
    },
  ]);

  function submit(event: FormEvent<HTMLFormElement>) {
    // As in ActionForm: React would reset the form after its action, and a refused one must keep what was typed.
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const early = htmlProblem(uploadProblemBeforeSend(data, HTML_UPLOAD, limits.htmlMaxBytes));
    setLocalError(early);
    if (early) return;
    startTransition(() => formAction(data));
  }

  function chooseFile() {
    const file = fileInput.current?.files?.[0];
    setDroppedName("");
    setLocalError(file ? htmlProblem(fileProblem(file, HTML_UPLOAD, limits.htmlMaxBytes)) : null);
    setDismissed(state);
  }

  const serverError = state.status === "error" && shown && dismissed !== state ? { field: state.field ?? "form", message: state.message } : null;
  const error = localError ?? serverError;
  const fieldError = fieldErrors(error, prefix);
  const values = state.status === "error" ? (state.values ?? {}) : {};
  const title = fieldError("title");
  const description = fieldError("description");
  const tags = fieldError("tags");
  const passcode = fieldError("passcode");
  const context = fieldError("context");
  const html = fieldError("html");
  const refused = mode === "create" ? DASHBOARD_MESSAGES.publishRefused : DASHBOARD_MESSAGES.versionRefused;
  const status = error ? (error.field === "form" ? error.message : refused) : shown ? state.message : "";

  const body = (
    <form
      ref={form}
      action={formAction}
      onSubmit={submit}
      encType="multipart/form-data"
      aria-label={mode === "create" ? "New drop" : "New version"}
      className={dragging ? styles.dropTarget : undefined}
      data-testid={`${mode}-form`}
    >
      {slug ? <input type="hidden" name="slug" value={slug} /> : null}
      {mode === "create" ? (
        <>
          <div className={styles.control}>
            <label htmlFor="title">Title</label>
            <input id="title" name="title" required maxLength={limits.titleMaxChars} defaultValue={values.title} {...title.inputProps} />
            {title.errorText}
          </div>
          <div className={styles.control}>
            <label htmlFor="description">Description (optional)</label>
            <textarea id="description" name="description" rows={2} maxLength={limits.descriptionMaxChars} defaultValue={values.description} {...description.inputProps} />
            {description.errorText}
          </div>
        </>
      ) : null}
      <TextUploadFieldset
        upload={HTML_UPLOAD}
        idPrefix={prefix}
        legend="HTML document"
        help={
          <p>
            {canDrop ? "Drop an .html file anywhere on this page, choose one, or paste the HTML below." : "Choose an .html file, or paste the HTML below."} At most{" "}
            {sizeText(limits.htmlMaxBytes)}, UTF-8.
          </p>
        }
        fileLabel="HTML file"
        textLabel="Or paste HTML"
        rows={mode === "create" ? 8 : 5}
        defaultText={values.html}
        droppedName={droppedName}
        fileInput={fileInput}
        onChoose={chooseFile}
        error={html}
      />
      {mode === "create" ? (
        <>
          <div className={styles.control}>
            <label htmlFor="tags">Tags (optional)</label>
            <textarea id="tags" name="tags" rows={3} className={styles.mono} spellCheck={false} defaultValue={values.tags} aria-describedby={tags.errorText ? "tags-error" : "tags-help"} aria-invalid={tags.errorText ? true : undefined} />
            <small id="tags-help" className={styles.muted}>
              One key=value per line, at most 10. Private to you; agents can filter by them.
            </small>
            {tags.errorText}
          </div>
          <div className={styles.control}>
            <label htmlFor="passcode">Passcode (optional)</label>
            <input id="passcode" name="passcode" type="password" autoComplete="new-password" aria-describedby={passcode.errorText ? "passcode-error" : "passcode-help"} aria-invalid={passcode.errorText ? true : undefined} />
            <small id="passcode-help" className={styles.muted}>
              At least {limits.passcodeMinChars} characters. Viewers must type it to open the drop; leave empty for an open link.
            </small>
            {passcode.errorText}
          </div>
          <div className={styles.control}>
            <label className={styles.choice}>
              <input type="checkbox" name="indexable" defaultChecked={values.indexable} aria-describedby="indexable-help" />
              <span>{INDEXING_WORDING.choice}</span>
            </label>
            <small id="indexable-help" className={styles.muted}>
              {INDEXING_WORDING.byDefault} A drop with a passcode is never indexed.
            </small>
          </div>
          <div className={styles.control}>
            <CommentPolicyChoices legend="Who may comment on the viewer page" checked={values.comments ?? commentsDefault} describedBy="comments-help" />
            <small id="comments-help" className={styles.muted}>
              Starts at your account’s default, set on the <a href="/dashboard/account#comments-default-heading">Account</a> page. You can change it on the drop’s page at any time.
            </small>
          </div>
        </>
      ) : null}
      <div className={styles.control}>
        <label htmlFor={`${prefix}context`}>Context (optional)</label>
        <textarea
          id={`${prefix}context`}
          name="context"
          rows={3}
          defaultValue={values.context}
          aria-describedby={context.errorText ? `${prefix}context-error` : `${prefix}context-help`}
          aria-invalid={context.errorText ? true : undefined}
        />
        <small id={`${prefix}context-help`} className={styles.muted}>
          Why this version exists: what changed and why. Viewers can expand it under the drop.
        </small>
        {context.errorText}
      </div>
      <SubmitRow pending={pending} label={mode === "create" ? "Publish drop" : "Publish new version"} pendingLabel="Publishing…" />
      <p role="status" aria-live="polite" className={error ? styles.formError : styles.formOk} data-state={error ? "error" : state.status}>
        {status}
      </p>
    </form>
  );
  if (foldedUnder === undefined) return body;
  return (
    <ResultFold state={state} summary={foldedUnder} held={dragging || droppedName !== ""} className={styles.disclosure} data-testid={`${mode}-fold`}>
      <div id={`${prefix}upload`}>{body}</div>
    </ResultFold>
  );
}
