"use client";

import { startTransition, useActionState, useEffect, useEffectEvent, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { PREVIEW_SCROLL_MESSAGE, previewDelayMs, previewDocument } from "@/lib/dashboard/editor-preview";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import { dashboardEditPath } from "@/lib/dashboard/paths";
import type { PublishField, PublishState } from "@/lib/dashboard/publish-form";
import { HTML_UPLOAD } from "@/lib/dashboard/text-upload";
import { publishVersionAction } from "../actions";
import styles from "../dashboard.module.css";
import { SubmitRow } from "./submit-row";
import css from "./drop-editor.module.css";
import type { HtmlEditor } from "./html-editor";
import { fieldErrors, sizeText, uploadProblemBeforeSend, type FieldProblem } from "./text-upload-field";
import { useShownUntilNextSubmit } from "./use-until-next-submit";

type Props = {
  slug: string;
  /** The version `html` is: the form names it as its base, so a version published meanwhile is not undone. */
  baseVersion: number;
  html: string;
  htmlMaxBytes: number;
  /** The viewer frame's sandbox, so the preview runs no less confined than the published drop. */
  sandbox: string;
  /** What the server adds to every drop it serves (lib/html/inject.ts). */
  servedTail: string;
  viewerHref: string;
};

// Requested as soon as this page's script runs, while the page still loads, rather than after hydration.
const htmlEditorModule = typeof window === "undefined" ? null : import("./html-editor");

type Tab = "editor" | "preview";
const TABS: Tab[] = ["editor", "preview"];
const TAB_NAMES: Record<Tab, string> = { editor: "Editor", preview: "Preview" };

/**
 * The drop editor: the latest version's HTML in a form that publishes the next version with a context.
 * Without JavaScript it is a textarea that posts as a plain form. With it, CodeMirror takes over the
 * textarea (and writes back to it on submit) and a live preview sits beside it, or behind a tab on a
 * narrow screen. The preview updates after a pause in typing, and only while it is on screen.
 */
export function DropEditorForm({ slug, baseVersion, html, htmlMaxBytes, sandbox, servedTail, viewerHref }: Props) {
  const [state, formAction, pending] = useActionState<PublishState, FormData>(publishVersionAction, { status: "idle", message: "" });
  const values = state.status === "error" ? (state.values ?? {}) : {};
  // A refused form keeps the base its text came from; a success moves it to the version just made.
  const [base, setBase] = useState(() => Number(values.baseVersion) || baseVersion);
  const [localError, setLocalError] = useState<FieldProblem<PublishField> | null>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [tab, setTab] = useState<Tab>("editor");
  const shown = useShownUntilNextSubmit(state);

  const textarea = useRef<HTMLTextAreaElement>(null);
  const context = useRef<HTMLTextAreaElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const editor = useRef<HtmlEditor | null>(null);
  const preview = useRef({ stale: true, visible: false, scrollTop: 0, timer: undefined as ReturnType<typeof setTimeout> | undefined });
  // Edits not yet published, which leaving the page would lose; and the text of the publish under way.
  const unsaved = useRef(false);
  const sending = useRef("");

  // The frame gets the editor's text, or is marked stale while it is off screen (a phone's other tab).
  const showPreview = useEffectEvent(() => {
    const current = preview.current;
    clearTimeout(current.timer);
    if (!frame.current || !editor.current) return;
    if (!current.visible) {
      current.stale = true;
      return;
    }
    current.stale = false;
    frame.current.srcdoc = previewDocument(editor.current.text(), servedTail, current.scrollTop);
  });

  // The editor is mounted once, when its module has arrived and the page is hydrated.
  useEffect(() => {
    let cancelled = false;
    let mounted: HtmlEditor | null = null;
    const current = preview.current;
    void htmlEditorModule?.then(({ mountHtmlEditor }) => {
      if (cancelled || !host.current || !textarea.current) return;
      mounted = mountHtmlEditor(host.current, {
        // What the textarea holds now: anything typed before the script ran is kept.
        doc: textarea.current.value,
        attributes: { "aria-labelledby": "html-label", "aria-describedby": "html-help" },
        onChange: (length) => {
          unsaved.current = true;
          clearTimeout(current.timer);
          current.timer = setTimeout(showPreview, previewDelayMs(length));
        },
      });
      editor.current = mounted;
      setEnhanced(true);
    });
    const scrolled = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; top?: unknown } | null;
      if (event.source === frame.current?.contentWindow && data?.type === PREVIEW_SCROLL_MESSAGE && typeof data.top === "number") current.scrollTop = data.top;
    };
    const leaving = (event: BeforeUnloadEvent) => {
      if (unsaved.current) event.preventDefault();
    };
    window.addEventListener("message", scrolled);
    window.addEventListener("beforeunload", leaving);
    return () => {
      cancelled = true;
      clearTimeout(current.timer);
      mounted?.destroy();
      editor.current = null;
      window.removeEventListener("message", scrolled);
      window.removeEventListener("beforeunload", leaving);
    };
  }, []);

  // The preview renders when it comes on screen (a tab chosen, a window widened, scrolled to) with edits it has not shown.
  useEffect(() => {
    const element = frame.current;
    if (!enhanced || !element) return;
    const current = preview.current;
    const observer = new IntersectionObserver((entries) => {
      current.visible = entries.at(-1)?.isIntersecting ?? false;
      if (current.visible && current.stale) showPreview();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [enhanced]);

  useEffect(() => {
    if (state.status !== "ok" || state.published === undefined) return;
    setBase(state.published);
    if (context.current) context.current.value = "";
    unsaved.current = editor.current !== null && editor.current.text() !== sending.current;
  }, [state]);

  const serverError = state.status === "error" && shown ? { field: state.field ?? "form", message: state.message } : null;
  const error = localError ?? serverError;
  const fieldError = fieldErrors(error, "");
  const htmlError = fieldError("html");
  const contextError = fieldError("context");
  const status = error ? (error.field === "form" ? error.message : DASHBOARD_MESSAGES.versionRefused) : shown ? state.message : "";
  const htmlDescribedBy = htmlError.errorText ? `${htmlError.id} html-help` : "html-help";

  // The editor's label, help and error, as the textarea's.
  useEffect(() => {
    editor.current?.setAttributes({ "aria-labelledby": "html-label", "aria-describedby": htmlDescribedBy, ...(htmlError.errorText ? { "aria-invalid": "true" } : {}) });
  }, [enhanced, htmlDescribedBy, htmlError.errorText]);

  // A refusal of the document is shown under the editor, so a phone showing the preview turns back to it.
  const htmlRefused = error?.field === "html";
  useEffect(() => {
    if (htmlRefused) setTab("editor");
  }, [htmlRefused]);

  function submit(event: FormEvent<HTMLFormElement>) {
    // As in PublishForm: React would reset the form after its action, and a refused one must keep what was typed.
    event.preventDefault();
    if (editor.current && textarea.current) textarea.current.value = editor.current.text();
    const data = new FormData(event.currentTarget);
    const early = uploadProblemBeforeSend(data, HTML_UPLOAD, htmlMaxBytes);
    setLocalError(early === null ? null : { field: "html", message: early });
    if (early) return;
    sending.current = textarea.current?.value ?? "";
    startTransition(() => formAction(data));
  }

  function switchTabs(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.indexOf(tab);
    const next = { ArrowRight: TABS[(index + 1) % TABS.length], ArrowLeft: TABS[(index + TABS.length - 1) % TABS.length], Home: TABS[0], End: TABS[TABS.length - 1] }[event.key];
    if (!next) return;
    event.preventDefault();
    setTab(next);
    document.getElementById(`${next}-tab`)?.focus();
  }

  const panel = (name: Tab) => (enhanced ? { role: "tabpanel", "aria-labelledby": `${name}-tab`, "data-active": tab === name ? "" : undefined } : {});

  return (
    <form action={formAction} onSubmit={submit} encType="multipart/form-data" aria-label="Edit HTML" data-testid="editor-form">
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="base_version" value={base} />
      <div className={css.workspace} data-enhanced={enhanced ? "" : undefined}>
        {enhanced ? (
          <div role="tablist" aria-label="Editor and preview" className={css.tabs} onKeyDown={switchTabs}>
            {TABS.map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                id={`${name}-tab`}
                aria-selected={tab === name}
                aria-controls={`${name}-panel`}
                tabIndex={tab === name ? 0 : -1}
                className={css.tab}
                onClick={() => setTab(name)}
              >
                {TAB_NAMES[name]}
              </button>
            ))}
          </div>
        ) : null}
        <div id="editor-panel" className={css.pane} {...panel("editor")}>
          {/* Once CodeMirror holds the text, the label names it (aria-labelledby) and a click on it goes there. */}
          <label id="html-label" htmlFor={enhanced ? undefined : "html"} onClick={enhanced ? () => editor.current?.focus() : undefined} className={css.paneTitle}>
            HTML of version {base}
          </label>
          <textarea
            ref={textarea}
            id="html"
            name="html"
            rows={24}
            className={`${styles.mono} ${css.plain}`}
            spellCheck={false}
            hidden={enhanced}
            defaultValue={values.html ?? html}
            aria-invalid={htmlError.errorText ? true : undefined}
            aria-describedby={htmlDescribedBy}
          />
          <div ref={host} className={css.code} hidden={!enhanced} />
          <p id="html-help" className={styles.muted}>
            At most {sizeText(htmlMaxBytes)} of UTF-8.{enhanced ? " Find and replace with Ctrl+F (⌘F on a Mac); Tab moves on to the next field." : ""}
          </p>
          {htmlError.errorText}
        </div>
        {enhanced ? (
          <div id="preview-panel" className={css.pane} {...panel("preview")}>
            <p className={`${css.paneTitle} ${css.wideOnly}`} aria-hidden="true">
              Preview
            </p>
            <iframe ref={frame} title="Preview of your edit" sandbox={sandbox} referrerPolicy="no-referrer" className={css.frame} data-testid="editor-preview" />
            <p className={styles.muted}>Runs in the viewer&apos;s sandbox. Scripts, styles and fonts from other sites load only in the published drop.</p>
          </div>
        ) : null}
      </div>
      <div className={styles.control}>
        <label htmlFor="context">Context (optional)</label>
        <textarea
          ref={context}
          id="context"
          name="context"
          rows={3}
          defaultValue={values.context}
          aria-describedby={contextError.errorText ? "context-error context-help" : "context-help"}
          aria-invalid={contextError.errorText ? true : undefined}
        />
        <small id="context-help" className={styles.muted}>
          What you changed and why. Viewers can expand it under the drop.
        </small>
        {contextError.errorText}
      </div>
      <SubmitRow pending={pending} label="Publish new version" pendingLabel="Publishing…" />
      <p role="status" aria-live="polite" className={error ? styles.formError : styles.formOk} data-state={error ? "error" : state.status}>
        {status}
        {!error && shown && state.status === "ok" ? (
          <>
            {" "}
            <a href={viewerHref}>Open it in the viewer</a>
          </>
        ) : null}
        {error && !localError && state.latest !== undefined ? (
          <>
            {" "}
            <a href={dashboardEditPath(slug)} target="_blank" rel="noopener">
              Open version {state.latest} in a new tab
            </a>
          </>
        ) : null}
      </p>
    </form>
  );
}
