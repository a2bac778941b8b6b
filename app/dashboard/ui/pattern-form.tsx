"use client";

import { startTransition, useActionState, useRef, useState, type FormEvent } from "react";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import type { PatternField, PatternState, PatternValues } from "@/lib/dashboard/pattern-form";
import { PATTERN_MARKDOWN_UPLOAD, PATTERN_TEMPLATE_UPLOAD, type TextUpload } from "@/lib/dashboard/text-upload";
import { savePatternAction } from "../actions";
import styles from "../dashboard.module.css";
import { SubmitRow } from "./submit-row";
import { fieldErrors, fileProblem, sizeText, TextUploadFieldset, uploadProblemBeforeSend, usePageFileDrop, type FieldProblem } from "./text-upload-field";
import { useShownUntilNextSubmit } from "./use-until-next-submit";

type Limits = { nameMaxChars: number; markdownMaxBytes: number; templateMaxBytes: number };

type Props = {
  limits: Limits;
  /** The fields as the form opens: empty for a new pattern, else the pattern being edited or started from. */
  initial: PatternValues;
};

const EXAMPLE = `---
name: weekly-report
description: A one-page weekly status for the team and its managers.
triggers:
  - weekly report
  - status update
template: weekly-report.template.html
---

# Weekly report

## When to use
…`;

/**
 * Add or replace one of the account's patterns: a name, the Markdown and an optional template, each
 * text from a chosen file, a file dropped on the page (a .md file goes to the Markdown, an .html file to
 * the template) or pasted. Without JavaScript it is a plain multipart form.
 */
export function PatternForm({ limits, initial }: Props) {
  const [state, formAction, pending] = useActionState<PatternState, FormData>(savePatternAction, { status: "idle", message: "" });
  const [localError, setLocalError] = useState<FieldProblem<PatternField> | null>(null);
  const [dropped, setDropped] = useState({ markdown: "", template: "" });
  // A result the human has since acted on (a new file chosen or dropped) is no longer shown.
  const [dismissed, setDismissed] = useState<PatternState | null>(null);
  const markdownFile = useRef<HTMLInputElement>(null);
  const templateFile = useRef<HTMLInputElement>(null);
  const shown = useShownUntilNextSubmit(state);

  const uploads: { field: "markdown" | "template"; upload: TextUpload; maxBytes: number; input: typeof markdownFile }[] = [
    { field: "markdown", upload: PATTERN_MARKDOWN_UPLOAD, maxBytes: limits.markdownMaxBytes, input: markdownFile },
    { field: "template", upload: PATTERN_TEMPLATE_UPLOAD, maxBytes: limits.templateMaxBytes, input: templateFile },
  ];

  function problem(field: "markdown" | "template", message: string | null): FieldProblem<PatternField> | null {
    return message === null ? null : { field, message };
  }

  function picked(field: "markdown" | "template", file: File | undefined, droppedName: string) {
    const { upload, maxBytes } = uploads.find((one) => one.field === field)!;
    setDropped((names) => ({ ...names, [field]: droppedName }));
    setLocalError(file ? problem(field, fileProblem(file, upload, maxBytes)) : null);
    setDismissed(state);
  }

  const { canDrop, dragging } = usePageFileDrop(uploads.map(({ field, upload, input }) => ({ upload, input, onDrop: (file: File) => picked(field, file, file.name) })));

  function submit(event: FormEvent<HTMLFormElement>) {
    // As in ActionForm: React would reset the form after its action, and a refused one must keep what was typed.
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    let early: FieldProblem<PatternField> | null = null;
    for (const { field, upload, maxBytes } of uploads) early ??= problem(field, uploadProblemBeforeSend(data, upload, maxBytes));
    setLocalError(early);
    if (early) return;
    startTransition(() => formAction(data));
  }

  const serverError = state.status === "error" && shown && dismissed !== state ? { field: state.field ?? "form", message: state.message } : null;
  const error = localError ?? serverError;
  const fieldError = fieldErrors(error, "pattern-");
  const values = state.status === "error" ? (state.values ?? {}) : initial;
  const name = fieldError("name");
  const status = error ? (error.field === "form" ? error.message : DASHBOARD_MESSAGES.patternRefused) : shown ? state.message : "";
  const dropHint = canDrop ? "Drop it anywhere on this page, choose it" : "Choose it";

  return (
    <form action={formAction} onSubmit={submit} encType="multipart/form-data" aria-label="Save pattern" className={dragging ? styles.dropTarget : undefined} data-testid="pattern-form">
      <div className={styles.control}>
        <label htmlFor="pattern-name">Name</label>
        <input
          id="pattern-name"
          name="name"
          required
          maxLength={limits.nameMaxChars}
          autoComplete="off"
          spellCheck={false}
          className={styles.mono}
          defaultValue={values.name}
          aria-invalid={name.errorText ? true : undefined}
          aria-describedby={name.errorText ? `${name.id} pattern-name-help` : "pattern-name-help"}
        />
        <small id="pattern-name-help" className={styles.muted}>
          Lower-case words joined by hyphens, such as weekly-report; the same as the name line of the front matter. Saving under the name of one of your patterns replaces it.
        </small>
        {name.errorText}
      </div>
      <TextUploadFieldset
        upload={PATTERN_MARKDOWN_UPLOAD}
        idPrefix="pattern-"
        legend="Markdown"
        help={
          <>
            <p>
              {dropHint} (.md), or paste the Markdown below. At most {sizeText(limits.markdownMaxBytes)}. It starts with front matter between two --- lines
              (name, description, triggers, and template only when there is one), then the guide:
            </p>
            <pre className={`${styles.snippet} ${styles.example}`}>{EXAMPLE}</pre>
          </>
        }
        fileLabel="Markdown file"
        textLabel="Or paste Markdown"
        rows={14}
        defaultText={values.markdown}
        droppedName={dropped.markdown}
        fileInput={markdownFile}
        onChoose={() => picked("markdown", markdownFile.current?.files?.[0], "")}
        error={fieldError("markdown")}
      />
      <TextUploadFieldset
        upload={PATTERN_TEMPLATE_UPLOAD}
        idPrefix="pattern-"
        legend="Template (optional)"
        help={
          <p>
            A self-contained HTML page for agents to start from. {dropHint} (.html), or paste it below. At most {sizeText(limits.templateMaxBytes)}. With a template,
            the front matter says so: template: &lt;name&gt;.template.html.
          </p>
        }
        fileLabel="Template file"
        textLabel="Or paste the template"
        rows={6}
        defaultText={values.template}
        droppedName={dropped.template}
        fileInput={templateFile}
        onChoose={() => picked("template", templateFile.current?.files?.[0], "")}
        error={fieldError("template")}
      />
      <SubmitRow pending={pending} label="Save pattern" pendingLabel="Saving…" />
      <p role="status" aria-live="polite" className={error ? styles.formError : styles.formOk} data-state={error ? "error" : state.status}>
        {status}
      </p>
    </form>
  );
}
