// CodeMirror 6 with its HTML language (CSS and JavaScript inside it included), as the drop editor uses
// it. Only that page imports this module, and only once its script runs, so no other page carries it.
// Colours are the dashboard's CSS variables (app/globals.css; the code colours in drop-editor.module.css),
// so the editor follows the light or dark scheme as the rest of the page does.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { html } from "@codemirror/lang-html";
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";

export type HtmlEditor = {
  text(): string;
  focus(): void;
  /** The editable element's attributes: its label, help and error (aria-*), which change as the form does. */
  setAttributes(attributes: Record<string, string>): void;
  destroy(): void;
};

const highlightStyle = HighlightStyle.define([
  { tag: [tags.tagName, tags.heading], color: "var(--code-tag)" },
  { tag: [tags.attributeName, tags.propertyName, tags.className], color: "var(--code-attribute)" },
  { tag: [tags.attributeValue, tags.string, tags.special(tags.string), tags.regexp], color: "var(--code-string)" },
  { tag: [tags.keyword, tags.operatorKeyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword, tags.modifier], color: "var(--code-keyword)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.unit, tags.color, tags.character], color: "var(--code-number)" },
  { tag: [tags.comment, tags.documentMeta, tags.angleBracket, tags.processingInstruction], color: "var(--code-comment)" },
  { tag: tags.invalid, color: "var(--danger)" },
]);

const MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
/** The search panel's fields and buttons: at least 24 by 24 CSS pixels, as every target of the dashboard. */
const TARGET = { minHeight: "24px", minWidth: "24px" };

const theme = EditorView.theme({
  "&": { height: "100%", color: "var(--fg)", backgroundColor: "var(--bg)", fontSize: "0.9rem" },
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "-2px" },
  ".cm-scroller": { fontFamily: MONO, lineHeight: "1.55" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--surface)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent) 6%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--accent) 14%, transparent)", color: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": {
    backgroundColor: "color-mix(in srgb, var(--accent) 32%, transparent) !important",
  },
  ".cm-selectionMatch": { backgroundColor: "color-mix(in srgb, var(--accent) 16%, transparent)" },
  "&.cm-focused .cm-matchingBracket": { backgroundColor: "color-mix(in srgb, var(--accent) 22%, transparent)", outline: "1px solid var(--muted)" },
  ".cm-searchMatch": { backgroundColor: "color-mix(in srgb, #f5c400 40%, transparent)", outline: "1px solid var(--muted)" },
  ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: "color-mix(in srgb, var(--accent) 35%, transparent)" },
  ".cm-panels": { backgroundColor: "var(--surface)", color: "var(--fg)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--border)" },
  ".cm-panel.cm-search": { padding: "6px 32px 6px 6px", fontSize: "0.9rem" },
  ".cm-panel.cm-search label": { ...TARGET, display: "inline-flex", alignItems: "center", gap: "4px", fontSize: "inherit" },
  ".cm-panel.cm-search input[type=checkbox]": { margin: "0" },
  ".cm-textfield, .cm-button": { ...TARGET, font: "inherit", color: "var(--fg)", border: "1px solid var(--border)", borderRadius: "6px", padding: "2px 8px" },
  ".cm-textfield": { backgroundColor: "var(--bg)" },
  ".cm-button": { backgroundColor: "var(--surface)", backgroundImage: "none" },
  ".cm-panel.cm-search [name=close]": { ...TARGET, top: "6px", right: "4px", fontSize: "1.2rem", lineHeight: "1", color: "var(--fg)" },
});

/**
 * Lines longer than this are a minified document's: wrapped, each is one enormous block CodeMirror must
 * lay out whole on every edit; unwrapped, it draws only the part on screen.
 */
const LONGEST_WRAPPED_LINE = 10_000;

function hasLongLine(text: string): boolean {
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    if ((end === -1 ? text.length : end) - start > LONGEST_WRAPPED_LINE) return true;
    start = end === -1 ? text.length : end + 1;
  }
  return false;
}

/** An editor in `parent` holding `doc`; `onChange` hears each edit with the document's new length. */
export function mountHtmlEditor(parent: HTMLElement, options: { doc: string; attributes: Record<string, string>; onChange: (length: number) => void }): HtmlEditor {
  const attributes = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        EditorState.allowMultipleSelections.of(true),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        search({ top: true }),
        // No Tab binding: Tab and Shift+Tab leave the editor, as they leave any other field.
        keymap.of([...searchKeymap, ...historyKeymap, ...defaultKeymap]),
        html(),
        syntaxHighlighting(highlightStyle),
        theme,
        hasLongLine(options.doc) ? [] : EditorView.lineWrapping,
        attributes.of(EditorView.contentAttributes.of(options.attributes)),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.length);
        }),
      ],
    }),
  });
  return {
    text: () => view.state.doc.toString(),
    focus: () => view.focus(),
    setAttributes: (next) => view.dispatch({ effects: attributes.reconfigure(EditorView.contentAttributes.of(next)) }),
    destroy: () => view.destroy(),
  };
}
