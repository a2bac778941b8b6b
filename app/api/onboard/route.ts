import { otherMethods } from "@/lib/api/responses";
import { discoveryFacts } from "@/lib/discovery/facts";
import { buildOnboardingMarkdown } from "@/lib/discovery/onboard";
import { documentResponse, prefersJson } from "@/lib/discovery/respond";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  if (prefersJson(request.headers.get("accept"))) {
    return documentResponse(() => ({ instructions: buildOnboardingMarkdown(), public_url: discoveryFacts().publicUrl }), "application/json; charset=utf-8");
  }
  return documentResponse(buildOnboardingMarkdown, "text/markdown; charset=utf-8");
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
