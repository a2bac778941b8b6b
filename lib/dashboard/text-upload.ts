// Texts a dashboard form takes either as a chosen (or dropped) file or as pasted text: a drop's HTML, a
// pattern's Markdown and its template. The browser checks a file with the same sentences the server
// uses when it reads the form again, so this module stays free of server-only imports.
import { formatBytes } from "./format";

export type TextUpload<F extends string = string> = {
  /** The form's fields: the file input and the textarea, which also names the field an error belongs to. */
  fileField: string;
  textField: F;
  /** File names taken, and the input's `accept`. */
  fileName: RegExp;
  accept: string;
  /** For sentences: “x” is not {fileNoun}. Choose a file ending in {extensions}. */
  fileNoun: string;
  extensions: string;
  /** “x” is empty. Choose a file with {contentNoun} in it. */
  contentNoun: string;
  /** The {what} is 3 MB; {holder} takes at most 2 MB. */
  what: string;
  holder: string;
};

const HTML_FILE = /\.(html?|xhtml)$/i;
const HTML_ACCEPT = ".html,.htm,.xhtml,text/html";

export const HTML_UPLOAD: TextUpload<"html"> = {
  fileField: "html_file",
  textField: "html",
  fileName: HTML_FILE,
  accept: HTML_ACCEPT,
  fileNoun: "an HTML file",
  extensions: ".html or .htm",
  contentNoun: "an HTML document",
  what: "HTML",
  holder: "a drop",
};

export const PATTERN_MARKDOWN_UPLOAD: TextUpload<"markdown"> = {
  fileField: "markdown_file",
  textField: "markdown",
  fileName: /\.(md|markdown)$/i,
  accept: ".md,.markdown,text/markdown",
  fileNoun: "a Markdown file",
  extensions: ".md",
  contentNoun: "the pattern's Markdown",
  what: "Markdown",
  holder: "a pattern",
};

export const PATTERN_TEMPLATE_UPLOAD: TextUpload<"template"> = {
  fileField: "template_file",
  textField: "template",
  fileName: HTML_FILE,
  accept: HTML_ACCEPT,
  fileNoun: "an HTML file",
  extensions: ".html or .htm",
  contentNoun: "an HTML document",
  what: "template",
  holder: "a template",
};

/** A file name as a sentence quotes it: long names are cut. */
function quoted(name: string): string {
  return `“${name.slice(0, 80)}”`;
}

export function wrongKindMessage(upload: TextUpload, fileName: string): string {
  return `${quoted(fileName)} is not ${upload.fileNoun}. Choose a file ending in ${upload.extensions}.`;
}

export function emptyFileMessage(upload: TextUpload, fileName: string): string {
  return `${quoted(fileName)} is empty. Choose a file with ${upload.contentNoun} in it.`;
}

/** A refusal that belongs to one field of a form. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "FieldError";
  }
}

type ReadOptions = {
  maxBytes: number;
  /** Said when neither a file nor text came; null when the text is optional (then the result is null). */
  missing: string | null;
  both: string;
  tooLarge: (bytes: number) => string;
};

/** Form fields, with the CRLF line ends browsers submit for textareas made plain LF. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.replace(/\r\n?/g, "\n") : "";
}

/**
 * The text: a chosen (or dropped) file, or pasted text; exactly one of them. A file must be named as the
 * upload expects and be UTF-8 text. Throws a FieldError for the upload's text field.
 */
export async function readTextUpload(form: FormData, upload: TextUpload, options: ReadOptions & { missing: string }): Promise<string>;
export async function readTextUpload(form: FormData, upload: TextUpload, options: ReadOptions): Promise<string | null>;
export async function readTextUpload(form: FormData, upload: TextUpload, options: ReadOptions): Promise<string | null> {
  const file = form.get(upload.fileField);
  const pasted = formText(form, upload.textField);
  // A form sent without a chosen file still carries an empty one; an empty file is no text either.
  const chosen = file instanceof File && file.size > 0 ? file : null;
  if (chosen && pasted.trim() !== "") throw new FieldError(upload.textField, options.both);
  if (!chosen) {
    if (pasted.trim() !== "") return pasted;
    if (options.missing === null) return null;
    throw new FieldError(upload.textField, options.missing);
  }
  if (!upload.fileName.test(chosen.name)) throw new FieldError(upload.textField, wrongKindMessage(upload, chosen.name));
  if (chosen.size > options.maxBytes) throw new FieldError(upload.textField, options.tooLarge(chosen.size));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await chosen.arrayBuffer());
  } catch {
    throw new FieldError(upload.textField, `${quoted(chosen.name)} is not UTF-8 text. Save it as UTF-8 and choose it again.`);
  }
}

/** "The Markdown is 70.0 KB; a pattern takes at most 64.0 KB." */
export function tooLargeMessage(upload: TextUpload, bytes: number, maxBytes: number): string {
  return `The ${upload.what} is ${formatBytes(bytes)}; ${upload.holder} takes at most ${formatBytes(maxBytes)}.`;
}
