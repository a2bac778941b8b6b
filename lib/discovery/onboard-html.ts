import { discoveryFacts } from "./facts";
import { escapeHtml, renderMarkdownToHtml } from "./markdown-html";
import { buildOnboardingMarkdown } from "./onboard";

// The page's only style, inline: the app's stylesheet is a build asset this route cannot name.
const STYLE = `:root{color-scheme:light dark;--bg:#fbfbfa;--fg:#1d1d1f;--muted:#6b6b70;--border:#e3e3e0;--accent:#2f5bea;--surface:#fff;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
@media (prefers-color-scheme:dark){:root{--bg:#121214;--fg:#ececef;--muted:#9a9aa2;--border:#2a2a2f;--accent:#7d9bff;--surface:#1a1a1d}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);line-height:1.55}a{color:var(--accent)}
header{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;max-width:960px;margin:0 auto;padding:1rem 1rem 0}header .brand{font-weight:700;color:var(--fg);text-decoration:none;margin-right:auto}
main{max-width:960px;margin:0 auto;padding:1rem 1rem 3rem;overflow-wrap:anywhere}.note{color:var(--muted);font-size:.9rem}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}:not(pre)>code{background:var(--surface);border:1px solid var(--border);border-radius:4px;padding:0 .25em}
pre{background:var(--surface);border:1px solid var(--border);border-radius:8px;padding:.75rem;overflow-x:auto;overflow-wrap:normal}
.table{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid var(--border);padding:.35rem .5rem;text-align:left;vertical-align:top}`;

/** The Content-Security-Policy of the page: no script at all, its own inline style, no framing. */
export const ONBOARD_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The onboarding guide as a web page, for a person who opens /api/onboard in a browser (an addition:
 * agents, which do not ask for HTML first, keep getting the spec's Markdown).
 */
export function buildOnboardingHtml(): string {
  const facts = discoveryFacts();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Onboarding guide · ${escapeHtml(facts.name)}</title><meta name="robots" content="noindex"><style>${STYLE}</style></head>
<body><header><a class="brand" href="/">htmldrop</a><nav aria-label="Documents"><a href="/docs">API reference</a> · <a href="/dashboard/tokens">Tokens</a></nav></header>
<main><p class="note">This is the guide agents read to connect themselves. They get it as Markdown (the default) or JSON (<code>Accept: application/json</code>); your browser asked for HTML.</p>
${renderMarkdownToHtml(buildOnboardingMarkdown())}
</main></body></html>`;
}
