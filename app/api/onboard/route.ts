import { methodsNotServedAt } from "@/lib/api/responses";
import { discoveryFacts } from "@/lib/discovery/facts";
import { buildOnboardingMarkdown } from "@/lib/discovery/onboard";
import { buildOnboardingHtml, ONBOARD_HTML_CSP } from "@/lib/discovery/onboard-html";
import { documentResponse, prefersHtml, prefersJson } from "@/lib/discovery/respond";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  const accept = request.headers.get("accept");
  if (prefersJson(accept)) {
    return documentResponse(() => ({ instructions: buildOnboardingMarkdown(), public_url: discoveryFacts().publicUrl }), "application/json; charset=utf-8");
  }
  // An addition: a browser that asks for HTML first gets the guide rendered.
  if (prefersHtml(accept)) {
    return documentResponse(buildOnboardingHtml, "text/html; charset=utf-8", { "content-security-policy": ONBOARD_HTML_CSP, "x-content-type-options": "nosniff", "x-frame-options": "DENY" });
  }
  return documentResponse(buildOnboardingMarkdown, "text/markdown; charset=utf-8");
}

export const { POST, PUT, PATCH, DELETE } = methodsNotServedAt("/api/onboard");
