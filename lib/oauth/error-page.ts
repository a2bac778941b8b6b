import type { ErrorOut, KoaContextWithOIDC } from "oidc-provider";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export const ERROR_PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
} as const;

/** The OAuth error in plain words, never a stack trace. */
export function oauthErrorPage(error: string, description = "The request could not be completed."): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connection refused · htmldrop</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f2f2f2;padding:0 .25rem}</style>
</head><body><main>
<h1>This app could not connect to htmldrop</h1>
<p>${escapeHtml(description)}</p>
<p>Error code: <code>${escapeHtml(error)}</code>. Go back to the app and start the connection again; if it keeps failing, the app's OAuth settings need fixing.</p>
</main></body></html>`;
}

/**
 * What a person sees when an authorization request is refused before they answered it (unknown client,
 * redirect URI mismatch, prompt=none, a malformed parameter): shown here, never sent to the app.
 */
export function renderOAuthError(ctx: KoaContextWithOIDC, out: ErrorOut): void {
  ctx.type = "html";
  for (const [name, value] of Object.entries(ERROR_PAGE_HEADERS)) if (name !== "content-type") ctx.set(name, value);
  ctx.body = oauthErrorPage(out.error, out.error_description);
}
