import { errorResponse } from "@/lib/api/responses";

// Discovery documents are public and identical for every caller: cacheable briefly, readable cross-origin.
const DOCUMENT_HEADERS = { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" };

export function documentResponse(build: () => string | object, contentType: string, extraHeaders: Record<string, string> = {}): Response {
  try {
    const value = build();
    const body = typeof value === "string" ? value : JSON.stringify(value, null, 2);
    return new Response(body, { headers: { ...DOCUMENT_HEADERS, "content-type": contentType, vary: "accept", ...extraHeaders } });
  } catch (error) {
    return errorResponse(error);
  }
}

/** The highest quality the Accept header gives application/json, Markdown or plain text, HTML, and anything. */
function acceptQualities(accept: string | null): { json: number; text: number; html: number; any: number } {
  const qualities = { json: 0, text: 0, html: 0, any: 0 };
  for (const part of (accept ?? "").split(",")) {
    const [type = "", ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.map((param) => param.trim()).find((param) => param.startsWith("q="))?.slice(2) ?? "1");
    const quality = Number.isFinite(q) ? q : 0;
    if (type === "application/json") qualities.json = Math.max(qualities.json, quality);
    else if (type === "text/markdown" || type === "text/plain" || type === "text/*") qualities.text = Math.max(qualities.text, quality);
    else if (type === "text/html" || type === "application/xhtml+xml") qualities.html = Math.max(qualities.html, quality);
    else if (type === "*/*") qualities.any = Math.max(qualities.any, quality);
  }
  return qualities;
}

/** True when the Accept header ranks application/json above Markdown and plain text. */
export function prefersJson(accept: string | null): boolean {
  const { json, text } = acceptQualities(accept);
  return json > 0 && json > text;
}

/**
 * True when the Accept header names HTML above Markdown, plain text, JSON and any wildcard: a browser's
 * navigation. Agents sending `*\/*`, nothing or HTML ranked lower keep the spec's Markdown.
 */
export function prefersHtml(accept: string | null): boolean {
  const { json, text, html, any } = acceptQualities(accept);
  return html > 0 && html > Math.max(text, json, any);
}
