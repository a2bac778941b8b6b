import type { ErrorOut, KoaContextWithOIDC } from "oidc-provider";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * What a person sees when an authorization request cannot even be sent back to its app (unknown
 * client, redirect URI mismatch): the OAuth error in plain words, never a stack trace.
 */
export function renderOAuthError(ctx: KoaContextWithOIDC, out: ErrorOut): void {
  const description = out.error_description ?? "The request could not be completed.";
  ctx.type = "html";
  ctx.set("cache-control", "no-store");
  ctx.set("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connection refused · htmldrop</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f2f2f2;padding:0 .25rem}</style>
</head><body><main>
<h1>This app could not connect to htmldrop</h1>
<p>${escapeHtml(description)}</p>
<p>Error code: <code>${escapeHtml(out.error)}</code>. Go back to the app and start the connection again; if it keeps failing, the app's OAuth settings need fixing.</p>
</main></body></html>`;
}
