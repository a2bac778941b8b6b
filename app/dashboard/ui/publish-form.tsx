"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type DragEvent as ReactDragEvent, type FormEvent } from "react";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import type { PublishField, PublishState } from "@/lib/dashboard/publish-form";
import styles from "../dashboard.module.css";
import { useShownUntilNextSubmit } from "./use-until-next-submit";

type Limits = { htmlMaxBytes: number; titleMaxChars: number; descriptionMaxChars: number; passcodeMinChars: number };

type Props = {
  action: (previous: PublishState, form: FormData) => Promise<PublishState>;
  /** "create" asks for a whole drop; "version" only for a new document and its context. */
  mode: "create" | "version";
  /** The drop a new version goes to. */
  slug?: string;
  limits: Limits;
};

const HTML_FILE = /\.(html?|xhtml)$/i;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 2)} MB`;
}

/** What the browser can tell about a chosen or dropped file before uploading it; the server checks it again. */
function checkFile(file: File, htmlMaxBytes: number): { field: PublishField; message: string } | null {
  if (!HTML_FILE.test(file.name)) return { field: "html", message: `“${file.name}” is not an HTML file. Choose a file ending in .html or .htm.` };
  if (file.size === 0) return { field: "html", message: `“${file.name}” is empty. Choose a file with an HTML document in it.` };
  if (file.size > htmlMaxBytes) return { field: "html", message: `“${file.name}” is ${megabytes(file.size)}; a drop takes at most ${megabytes(htmlMaxBytes)}. Make it smaller and try again.` };
  return null;
}

/** A field's error, under it, and what ties the field to it for screen readers. */
function fieldErrors(error: { field: PublishField; message: string } | null, prefix: string) {
  return (name: PublishField) => {
    const id = `${prefix}${name}-error`;
    const message = error?.field === name ? error.message : "";
    return {
      inputProps: message ? { "aria-invalid": true as const, "aria-describedby": id } : {},
      errorText: message ? (
        <p id={id} className={styles.fieldError} data-testid={`${name}-error`}>
          {message}
        </p>
      ) : null,
    };
  };
}

/**
 * "New drop" and "New version": a document from a chosen file, a file dropped anywhere on the page
 * (with JavaScript) or pasted text, plus its fields. Without JavaScript it is a plain multipart form;
 * with it, obvious mistakes (a file that is not HTML, one over the limit) are caught before the upload.
 */
export function PublishForm({ action, mode, slug, limits }: Props) {
  const [state, formAction, pending] = useActionState<PublishState, FormData>(action, { status: "idle", message: "" });
  const [localError, setLocalError] = useState<{ field: PublishField; message: string } | null>(null);
  const [droppedName, setDroppedName] = useState("");
  const [dragging, setDragging] = useState(false);
  const [canDrop, setCanDrop] = useState(false);
  // A result the human has since acted on (a new file chosen or dropped) is no longer shown.
  const [dismissed, setDismissed] = useState<PublishState | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const shown = useShownUntilNextSubmit(state);
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);
  const prefix = mode === "version" ? "version-" : "";

  useEffect(() => {
    if (state.status !== "ok") return;
    form.current?.reset();
    setDroppedName("");
  }, [state]);

  // A file dropped anywhere on the page becomes the form's file, as if it had been chosen.
  useEffect(() => {
    setCanDrop(true);
    const over = (event: DragEvent) => {
      if (!event.dataTransfer?.types.includes("Files")) return;
      event.preventDefault();
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      const files = event.dataTransfer?.files;
      if (!files || files.length === 0 || !fileInput.current) return;
      event.preventDefault();
      setDragging(false);
      const transfer = new DataTransfer();
      transfer.items.add(files[0]!);
      fileInput.current.files = transfer.files;
      setDroppedName(files[0]!.name);
      setLocalError(checkFile(files[0]!, limits.htmlMaxBytes));
      setDismissed(stateRef.current);
    };
    document.addEventListener("dragover", over);
    document.addEventListener("dragleave", leave);
    document.addEventListener("drop", drop);
    return () => {
      document.removeEventListener("dragover", over);
      document.removeEventListener("dragleave", leave);
      document.removeEventListener("drop", drop);
    };
  }, [limits.htmlMaxBytes]);

  function submit(event: FormEvent<HTMLFormElement>) {
    // As in ActionForm: React would reset the form after its action, and a refused one must keep what was typed.
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("html_file");
    const pasted = data.get("html");
    const chosen = file instanceof File && file.name !== "" ? file : null;
    // No file chosen: the browser would still send an empty one.
    if (!chosen) data.delete("html_file");
    const pastedBytes = typeof pasted === "string" ? new Blob([pasted]).size : 0;
    // Caught here, these never reach the server: a body over Next's upload limit would fail there without a form state.
    const early = chosen ? checkFile(chosen, limits.htmlMaxBytes) : pastedBytes > limits.htmlMaxBytes ? { field: "html" as const, message: `The pasted HTML is ${megabytes(pastedBytes)}; a drop takes at most ${megabytes(limits.htmlMaxBytes)}.` } : null;
    setLocalError(early);
    if (early) return;
    startTransition(() => formAction(data));
  }

  function chooseFile() {
    const file = fileInput.current?.files?.[0];
    setDroppedName("");
    setLocalError(file ? checkFile(file, limits.htmlMaxBytes) : null);
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

  return (
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
      <fieldset className={`${styles.choices} ${styles.dropZone}`} data-testid="drop-zone">
        <legend>HTML document</legend>
        <p className={styles.muted} id={`${prefix}html-help`}>
          {canDrop ? "Drop an .html file anywhere on this page, choose one, or paste the HTML below." : "Choose an .html file, or paste the HTML below."} At most{" "}
          {megabytes(limits.htmlMaxBytes)}, UTF-8.
        </p>
        <div className={styles.control}>
          <label htmlFor={`${prefix}html-file`}>HTML file</label>
          <input ref={fileInput} id={`${prefix}html-file`} name="html_file" type="file" accept=".html,.htm,.xhtml,text/html" onChange={chooseFile} {...html.inputProps} />
          {droppedName ? (
            <p className={styles.muted} data-testid="dropped-file">
              Dropped: {droppedName}
            </p>
          ) : null}
        </div>
        <div className={styles.control}>
          <label htmlFor={`${prefix}html`}>Or paste HTML</label>
          <textarea id={`${prefix}html`} name="html" rows={mode === "create" ? 8 : 5} className={styles.mono} spellCheck={false} defaultValue={values.html} {...html.inputProps} />
        </div>
        {html.errorText}
      </fieldset>
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
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={pending} aria-disabled={pending}>
          {pending ? "Publishing…" : mode === "create" ? "Publish drop" : "Publish new version"}
        </button>
      </div>
      <p role="status" aria-live="polite" className={error ? styles.formError : styles.formOk} data-state={error ? "error" : state.status}>
        {status}
      </p>
    </form>
  );
}
