// The MCP Apps view of a drop (SEP-1865, @modelcontextprotocol/ext-apps): hosts that render apps show
// it beside the tool result; every other client sees the tools and results unchanged. The view speaks
// the extension's documented postMessage protocol itself (a few dozen lines) rather than bundling the
// extension's App class with the v2 SDK it is built on (over 500 KB).
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Caller } from "@/lib/accounts/credentials";
import { getConfig } from "@/lib/config";
import { getDrop, listVersions } from "@/lib/drops";
import { publicUrl } from "@/lib/drops/public-urls";
import { frameSrc } from "@/lib/serving/viewer";

export const DROP_VIEW_URI = "ui://htmldrop/drop";
/** The extension's MIME type for app HTML (RESOURCE_MIME_TYPE). */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The `_meta` key a view sets on its own tools/call, and under which the result answers it. */
export const VIEW_META_KEY = "htmldrop/view";

/** What a tool that shows a drop declares in tools/list: the current key and the legacy one hosts still read. */
export const DROP_VIEW_TOOL_META = { ui: { resourceUri: DROP_VIEW_URI }, "ui/resourceUri": DROP_VIEW_URI };

/** True when a tools/call came from the view (it asks for what it needs to draw one version). */
export function asksForView(meta: unknown): boolean {
  return typeof meta === "object" && meta !== null && VIEW_META_KEY in meta;
}

/**
 * What the view needs beyond get_version's own answer, only ever sent to a call that asked for it: the
 * drop's title, links and versions, and the frame's address. For a locked or non-public drop that is
 * the raw page with a pass for the caller's account, valid an hour and for this drop only (the owner and
 * editors pass the passcode gate); the bearer token and the passcode never reach the view or the document.
 */
export async function dropViewMeta(caller: Caller, slug: string, version: number) {
  const [drop, versions] = await Promise.all([getDrop(caller.userId, slug), listVersions(caller.userId, slug)]);
  const gated = drop.locked || drop.access !== undefined;
  const numbers = versions.map((entry) => entry.version);
  const previous = numbers.filter((number) => number < version).at(-1);
  return {
    [VIEW_META_KEY]: {
      title: drop.title,
      url: drop.url,
      latest_version: drop.latest_version,
      versions: numbers,
      frame_src: frameSrc(slug, version, null, gated ? caller.userId : null),
      compare_url: previous === undefined ? null : publicUrl(getConfig().publicUrl, slug, "compare", { from: previous, to: version }),
    },
  };
}

export function readDropView(): ReadResourceResult {
  const { contentOrigin } = getConfig();
  return {
    contents: [
      {
        uri: DROP_VIEW_URI,
        mimeType: MCP_APP_MIME_TYPE,
        text: DROP_VIEW_HTML,
        // Exactly what the view uses: it frames the raw page, fetches nothing and loads nothing else.
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [new URL(contentOrigin).origin] }, permissions: { clipboardWrite: {} }, prefersBorder: true } },
      },
    ],
  };
}

const DROP_VIEW_SCRIPT = String.raw`
"use strict";
const host = window.parent;
const $ = (id) => document.getElementById(id);
const pending = new Map();
let nextId = 1;
let shown = null; // {slug, version, view, context}
let fallback = null; // the drop from the tool result, for hosts that drop the view's _meta

const send = (message) => host.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*");
const notify = (method, params) => send({ method, params });
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

// Only the host speaks to the view: messages from the drop's own frame (or anyone else) are ignored.
window.addEventListener("message", (event) => {
  if (event.source !== host) return;
  const message = event.data;
  if (!message || message.jsonrpc !== "2.0") return;
  if (message.method === undefined) {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(message.error.message));
    else waiting.resolve(message.result);
    return;
  }
  if (message.method === "ui/notifications/tool-result") showResult(message.params || {});
  else if (message.method === "ui/notifications/host-context-changed") applyContext(message.params || {});
  else if (message.id !== undefined) {
    if (message.method === "ui/resource-teardown" || message.method === "ping") send({ id: message.id, result: {} });
    else send({ id: message.id, error: { code: -32601, message: "Method not found" } });
  }
});

function applyContext(context) {
  if (context.theme === "light" || context.theme === "dark") document.documentElement.dataset.theme = context.theme;
  const variables = context.styles && context.styles.variables;
  if (variables && typeof variables === "object") {
    for (const [name, value] of Object.entries(variables)) {
      if (/^--[a-z0-9-]+$/i.test(name) && typeof value === "string") document.documentElement.style.setProperty(name, value);
    }
  }
  const box = context.containerDimensions;
  if (box && typeof box.maxHeight === "number") document.documentElement.style.setProperty("--frame-max", Math.max(240, box.maxHeight - 120) + "px");
}

function status(text) {
  $("status").textContent = text;
  $("status").hidden = !text;
}

function showResult(result) {
  const data = result.structuredContent;
  if (result.isError || !data || typeof data.slug !== "string") {
    status(data && data.error ? data.error.message : "Nothing to show.");
    return;
  }
  if (typeof data.latest_version === "number") fallback = data;
  if (fallback && fallback.slug !== data.slug) fallback = null;
  load(data.slug, typeof data.version === "number" ? data.version : data.latest_version);
}

async function load(slug, version) {
  status("Loading version " + version + "…");
  let result;
  try {
    result = await request("tools/call", { name: "get_version", arguments: { slug, version }, _meta: { "${VIEW_META_KEY}": {} } });
  } catch (error) {
    status("The host did not pass the request on: " + error.message);
    return;
  }
  if (result.isError) {
    status(result.structuredContent && result.structuredContent.error ? result.structuredContent.error.message : "Could not load this version.");
    return;
  }
  const view = (result._meta && result._meta["${VIEW_META_KEY}"]) || fromDrop(version);
  if (!view) {
    status("This host does not pass on what the view needs; open the drop in the browser.");
    return;
  }
  shown = { slug, version, view, context: result.structuredContent.context };
  render();
}

// Without the view's _meta, a public drop still shows from its raw page.
function fromDrop(version) {
  if (!fallback || fallback.locked || fallback.access) return null;
  const versions = [];
  for (let number = 1; number <= fallback.latest_version; number++) versions.push(number);
  return { title: fallback.title, url: fallback.url, latest_version: fallback.latest_version, versions, frame_src: fallback.raw_url + "?v=" + version, compare_url: null };
}

function render() {
  const { version, view, context } = shown;
  status("");
  $("title").textContent = view.title;
  const select = $("version");
  select.replaceChildren(...view.versions.map((number) => new Option("Version " + number, String(number), false, number === version)));
  $("count").textContent = "of " + view.versions.length;
  $("compare").hidden = !view.compare_url;
  $("context-toggle").hidden = !context;
  $("context").textContent = context || "";
  if (!context) setContextOpen(false);
  const frame = $("document");
  if (frame.getAttribute("src") !== view.frame_src) frame.setAttribute("src", view.frame_src);
}

function linkToShown() {
  return shown.version === shown.view.latest_version ? shown.view.url : shown.view.url + "?v=" + shown.version;
}

function setContextOpen(open) {
  $("context-toggle").setAttribute("aria-expanded", String(open));
  $("context").hidden = !open;
}

$("version").addEventListener("change", (event) => shown && load(shown.slug, Number(event.target.value)));
$("context-toggle").addEventListener("click", () => setContextOpen($("context").hidden));
$("open").addEventListener("click", () => shown && request("ui/open-link", { url: linkToShown() }).catch(() => status(linkToShown())));
$("compare").addEventListener("click", () => shown && shown.view.compare_url && request("ui/open-link", { url: shown.view.compare_url }).catch(() => status(shown.view.compare_url)));
$("copy").addEventListener("click", async () => {
  if (!shown) return;
  try {
    await navigator.clipboard.writeText(linkToShown());
    status("Link copied.");
  } catch {
    status(linkToShown());
  }
});

new ResizeObserver(() => notify("ui/notifications/size-changed", { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight })).observe(document.body);

request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "htmldrop", version: "1" }, appCapabilities: { availableDisplayModes: ["inline"] } })
  .then((answer) => {
    applyContext((answer && answer.hostContext) || {});
    notify("ui/notifications/initialized", {});
  })
  .catch((error) => status("The host refused the view: " + error.message));
`;

const DROP_VIEW_STYLE = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,Canvas);--fg:var(--color-text-primary,CanvasText);--muted:var(--color-text-secondary,GrayText);--line:var(--color-border-primary,#8886);--radius:var(--border-radius-md,6px);font-family:var(--font-sans,system-ui,-apple-system,sans-serif)}
:root[data-theme=light]{color-scheme:light}:root[data-theme=dark]{color-scheme:dark}
body{margin:0;background:var(--bg);color:var(--fg);font-size:14px;line-height:1.4}
header{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:center;padding:.5rem .75rem;border-bottom:1px solid var(--line)}
h1{font-size:15px;margin:0;flex:1 1 14rem;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.versions{display:flex;gap:.35rem;align-items:center;color:var(--muted)}
.actions{display:flex;flex-wrap:wrap;gap:.35rem}
button,select{font:inherit;color:var(--fg);background:transparent;border:1px solid var(--line);border-radius:var(--radius);padding:.3rem .6rem;min-height:32px;cursor:pointer}
button:focus-visible,select:focus-visible{outline:2px solid Highlight;outline-offset:1px}
#context{margin:0;padding:.5rem .75rem;border-bottom:1px solid var(--line);white-space:pre-wrap;color:var(--muted);max-height:12rem;overflow:auto}
#status{margin:0;padding:.5rem .75rem;color:var(--muted)}
iframe{display:block;width:100%;height:min(70vh,var(--frame-max,640px));min-height:240px;border:0;background:#fff}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
@media (max-width:480px){header{padding:.5rem}.actions{width:100%}.actions button{flex:1 1 auto}}
`;

const DROP_VIEW_HTML = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>htmldrop</title><style>${DROP_VIEW_STYLE}</style></head><body>
<header><h1 id="title">htmldrop</h1>
<div class="versions"><label for="version" class="visually-hidden">Version</label><select id="version"></select><span id="count"></span></div>
<div class="actions"><button id="context-toggle" type="button" aria-expanded="false" aria-controls="context" hidden>Context</button><button id="open" type="button">Open</button><button id="copy" type="button">Copy link</button><button id="compare" type="button" hidden>Compare with previous</button></div></header>
<p id="context" hidden></p>
<p id="status" role="status">Waiting for the drop…</p>
<iframe id="document" title="The drop" sandbox="allow-scripts allow-forms allow-popups allow-modals" referrerpolicy="no-referrer"></iframe>
<script>${DROP_VIEW_SCRIPT}</script></body></html>`;
