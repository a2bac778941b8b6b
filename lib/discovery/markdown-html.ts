// The Markdown of htmldrop's own documents (the onboarding guide, operation descriptions) as HTML for
// a browser. Only the constructs those documents use: headings, paragraphs, fenced code, lists, tables,
// `code`, **bold**, [links](url) and bare URLs. Every character of the source is escaped: raw HTML in
// the Markdown shows as text, never as markup, and links are limited to http(s) and this site's paths.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

function safeHref(url: string): string | null {
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : null;
}

function link(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}">${label}</a>`;
}

/** Bare http(s) URLs become links; a trailing sentence mark stays outside the link. */
function autolink(escapedText: string): string {
  return escapedText.replace(/https?:\/\/[^\s<]+/g, (match) => {
    const url = match.replace(/[.,;:!?)]+$/, "");
    const rest = match.slice(url.length);
    // The text is escaped already: undo it for the href, which escapes again.
    const raw = url.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");
    return link(raw, url) + rest;
  });
}

/** Inline Markdown: `code`, **bold**, [label](url) and bare URLs, in that order of precedence. */
export function renderInlineMarkdown(text: string): string {
  const out: string[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out.push(autolink(escapeHtml(text.slice(last, match.index))));
    const [, code, bold, label, url] = match;
    if (code !== undefined) out.push(`<code>${escapeHtml(code)}</code>`);
    else if (bold !== undefined) out.push(`<strong>${autolink(escapeHtml(bold))}</strong>`);
    else {
      const href = safeHref(url!);
      out.push(href ? link(href, escapeHtml(label!)) : escapeHtml(match[0]));
    }
    last = match.index + match[0].length;
  }
  out.push(autolink(escapeHtml(text.slice(last))));
  return out.join("");
}

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function tableRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());
}

const LIST_ITEM = /^(\s*)([-*]|\d+\.)\s+(.*)$/;
const TABLE_RULE = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$/;

/** Block-level Markdown to HTML. */
export function renderMarkdownToHtml(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const html: string[] = [];
  const ids = new Map<string, number>();
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    const fence = /^```\s*([\w-]*)\s*$/.exec(line);
    if (fence) {
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !/^```\s*$/.test(lines[index]!)) body.push(lines[index++]!);
      index += 1;
      const language = fence[1] ? ` class="language-${escapeHtml(fence[1])}"` : "";
      // Focusable: a long line scrolls sideways, and a keyboard must reach it.
      html.push(`<pre tabindex="0"><code${language}>${escapeHtml(body.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      // Repeated headings get -2, -3, ...: ids stay unique.
      const slug = slugOf(heading[2]!);
      const seen = (ids.get(slug) ?? 0) + 1;
      ids.set(slug, seen);
      html.push(`<h${level} id="${seen === 1 ? slug : `${slug}-${seen}`}">${renderInlineMarkdown(heading[2]!)}</h${level}>`);
      index += 1;
      continue;
    }
    if (line.trim().startsWith("|") && TABLE_RULE.test((lines[index + 1] ?? "").trim())) {
      const head = tableRow(line);
      index += 2;
      const rows: string[][] = [];
      while (index < lines.length && lines[index]!.trim().startsWith("|")) rows.push(tableRow(lines[index++]!));
      const cells = (row: string[], tag: "th" | "td") => row.map((cell) => `<${tag}>${renderInlineMarkdown(cell)}</${tag}>`).join("");
      html.push(`<div class="table" tabindex="0"><table><thead><tr>${cells(head, "th")}</tr></thead><tbody>${rows.map((row) => `<tr>${cells(row, "td")}</tr>`).join("")}</tbody></table></div>`);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[2]!);
      const items: string[] = [];
      while (index < lines.length) {
        const next = LIST_ITEM.exec(lines[index]!);
        if (next && /\d/.test(next[2]!) === ordered && next[1]!.length === 0) {
          items.push(next[3]!);
          index += 1;
        } else if (lines[index]!.trim() !== "" && !next && /^\s+\S/.test(lines[index]!) && items.length > 0) {
          items[items.length - 1] += ` ${lines[index]!.trim()}`;
          index += 1;
        } else break;
      }
      const tag = ordered ? "ol" : "ul";
      html.push(`<${tag}>${items.map((text) => `<li>${renderInlineMarkdown(text)}</li>`).join("")}</${tag}>`);
      continue;
    }
    if (line.trim() === "") {
      index += 1;
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length && lines[index]!.trim() !== "" && !/^(#{1,6}\s|```)/.test(lines[index]!) && !LIST_ITEM.test(lines[index]!) && !(lines[index]!.trim().startsWith("|") && paragraph.length === 0)) {
      paragraph.push(lines[index]!.trim());
      index += 1;
    }
    if (paragraph.length === 0) {
      // A line starting with "|" that is not a table: plain text.
      paragraph.push(lines[index]!.trim());
      index += 1;
    }
    html.push(`<p>${renderInlineMarkdown(paragraph.join(" "))}</p>`);
  }
  return html.join("\n");
}
