"use client";

// A text a form takes as a chosen file, a file dropped anywhere on the page (with JavaScript) or pasted
// text: the "New drop" and "New version" forms' HTML, a pattern's Markdown and template. Without
// JavaScript the fieldset is a plain file input and textarea; with it, obvious mistakes (a file of the
// wrong kind, one over the limit) are caught before the upload.
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { emptyFileMessage, wrongKindMessage, type TextUpload } from "@/lib/dashboard/text-upload";
import styles from "../dashboard.module.css";

/** An error of one field of a form; "form" is the form as a whole. */
export type FieldProblem<F extends string> = { field: F; message: string };

const MB = 1024 * 1024;

/** Sizes as the browser's sentences say them: "2 MB", "2.50 MB", "64 KB". */
export function sizeText(bytes: number): string {
  if (bytes < MB) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KB`;
  return `${(bytes / MB).toFixed(bytes % MB === 0 ? 0 : 2)} MB`;
}

/** What the browser can tell about a chosen or dropped file before uploading it; the server checks it again. */
export function fileProblem(file: File, upload: TextUpload, maxBytes: number): string | null {
  if (!upload.fileName.test(file.name)) return wrongKindMessage(upload, file.name);
  if (file.size === 0) return emptyFileMessage(upload, file.name);
  if (file.size > maxBytes) return `“${file.name}” is ${sizeText(file.size)}; ${upload.holder} takes at most ${sizeText(maxBytes)}. Make it smaller and try again.`;
  return null;
}

/**
 * Checks the upload in a form's data before it is sent, and leaves out a file input with no file chosen
 * (the browser would still send an empty file). Caught here, an oversized text never reaches the server,
 * where a body over Next's upload limit would fail without a form state.
 */
export function uploadProblemBeforeSend(data: FormData, upload: TextUpload, maxBytes: number): string | null {
  const file = data.get(upload.fileField);
  const chosen = file instanceof File && file.name !== "" ? file : null;
  if (!chosen) {
    data.delete(upload.fileField);
    const pasted = data.get(upload.textField);
    const pastedBytes = typeof pasted === "string" ? new Blob([pasted]).size : 0;
    return pastedBytes > maxBytes ? `The pasted ${upload.what} is ${sizeText(pastedBytes)}; ${upload.holder} takes at most ${sizeText(maxBytes)}.` : null;
  }
  return fileProblem(chosen, upload, maxBytes);
}

export type FieldErrorView = { id: string; inputProps: { "aria-invalid"?: true; "aria-describedby"?: string }; errorText: ReactNode };

/** A field's error, under it, and what ties the field to it for screen readers. */
export function fieldErrors<F extends string>(error: FieldProblem<F | "form"> | null, prefix: string) {
  return (name: F): FieldErrorView => {
    const id = `${prefix}${name}-error`;
    const message = error?.field === name ? error.message : "";
    return {
      id,
      inputProps: message ? { "aria-invalid": true as const, "aria-describedby": id } : {},
      errorText: message ? (
        <p id={id} className={styles.fieldError} data-testid={`${name}-error`}>
          {message}
        </p>
      ) : null,
    };
  };
}

export type DropTarget = { upload: TextUpload; input: RefObject<HTMLInputElement | null>; onDrop: (file: File) => void };

/**
 * A file dropped anywhere on the page becomes a form's file, as if it had been chosen: in the input whose
 * upload takes that kind of file, else in the first one, which then says why it is refused.
 * `canDrop` is false until the script runs, so the page offers dropping only when it works.
 */
export function usePageFileDrop(targets: DropTarget[]): { canDrop: boolean; dragging: boolean } {
  const [dragging, setDragging] = useState(false);
  const [canDrop, setCanDrop] = useState(false);
  // The listeners are added once; they read the render's latest targets and callbacks.
  const latest = useRef(targets);
  useEffect(() => {
    latest.current = targets;
  });
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
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      const target = latest.current.find((candidate) => candidate.upload.fileName.test(file.name)) ?? latest.current[0];
      if (!target?.input.current) return;
      event.preventDefault();
      setDragging(false);
      const transfer = new DataTransfer();
      transfer.items.add(file);
      target.input.current.files = transfer.files;
      target.onDrop(file);
    };
    document.addEventListener("dragover", over);
    document.addEventListener("dragleave", leave);
    document.addEventListener("drop", drop);
    return () => {
      document.removeEventListener("dragover", over);
      document.removeEventListener("dragleave", leave);
      document.removeEventListener("drop", drop);
    };
  }, []);
  return { canDrop, dragging };
}

type FieldsetProps = {
  upload: TextUpload;
  /** Prefixes the fields' ids when a page holds two such forms. */
  idPrefix?: string;
  legend: string;
  /** Says what to choose, drop or paste; the inputs point at it. */
  help: ReactNode;
  fileLabel: string;
  textLabel: string;
  rows: number;
  defaultText?: string;
  /** The name of a file dropped on the page, shown since a file input cannot show it in every browser. */
  droppedName: string;
  fileInput: RefObject<HTMLInputElement | null>;
  onChoose: () => void;
  error: FieldErrorView;
};

/** The file input and the textarea of one upload, with its help and its error under them. */
export function TextUploadFieldset({ upload, idPrefix = "", legend, help, fileLabel, textLabel, rows, defaultText, droppedName, fileInput, onChoose, error }: FieldsetProps) {
  const id = `${idPrefix}${upload.textField}`;
  const describedBy = error.errorText ? `${error.id} ${id}-help` : `${id}-help`;
  const invalid = error.errorText ? true : undefined;
  // A file chosen while the page was still loading fired its change event before this script listened.
  useEffect(() => {
    if (fileInput.current?.files?.length) onChoose();
    // Once, when the script starts: later choices arrive through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <fieldset className={`${styles.choices} ${styles.dropZone}`} data-testid={`${upload.textField}-upload`}>
      <legend>{legend}</legend>
      <div className={styles.muted} id={`${id}-help`}>
        {help}
      </div>
      <div className={styles.control}>
        <label htmlFor={`${id}-file`}>{fileLabel}</label>
        <input ref={fileInput} id={`${id}-file`} name={upload.fileField} type="file" accept={upload.accept} onChange={onChoose} aria-invalid={invalid} aria-describedby={describedBy} />
        {droppedName ? (
          <p className={styles.muted} data-testid="dropped-file">
            Dropped: {droppedName}
          </p>
        ) : null}
      </div>
      <div className={styles.control}>
        <label htmlFor={id}>{textLabel}</label>
        <textarea id={id} name={upload.textField} rows={rows} className={styles.mono} spellCheck={false} defaultValue={defaultText} aria-invalid={invalid} aria-describedby={describedBy} />
      </div>
      {error.errorText}
    </fieldset>
  );
}
