import { errorResponse } from "@/lib/api/responses";

// Discovery documents are public and identical for every caller: cacheable briefly, readable cross-origin.
const DOCUMENT_HEADERS = { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" };

export function documentResponse(build: () => string | object, contentType: string): Response {
  try {
    const value = build();
    const body = typeof value === "string" ? value : JSON.stringify(value, null, 2);
    return new Response(body, { headers: { ...DOCUMENT_HEADERS, "content-type": contentType, vary: "accept" } });
  } catch (error) {
    return errorResponse(error);
  }
}

/** True when the Accept header ranks application/json above Markdown and plain text. */
export function prefersJson(accept: string | null): boolean {
  let json = 0;
  let text = 0;
  for (const part of (accept ?? "").split(",")) {
    const [type = "", ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.map((param) => param.trim()).find((param) => param.startsWith("q="))?.slice(2) ?? "1");
    const quality = Number.isFinite(q) ? q : 0;
    if (type === "application/json") json = Math.max(json, quality);
    else if (type === "text/markdown" || type === "text/plain" || type === "text/*") text = Math.max(text, quality);
  }
  return json > 0 && json > text;
}
