// Dependency-free on purpose: next.config.ts imports it to build the Link header of "/".
import { PATTERN_INDEX_PATH } from "../patterns/paths";

/** The discovery documents, by relation: the Link header, the API catalog and every page list them from here. */
export const DISCOVERY_DOCUMENTS = [
  { path: "/api/onboard", rel: "describedby", type: "text/markdown", title: "Onboarding for agents (Markdown; JSON with Accept: application/json)" },
  { path: "/openapi.json", rel: "service-desc", type: "application/openapi+json", title: "OpenAPI 3.1 description" },
  { path: "/docs", rel: "service-doc", type: "text/html", title: "Interactive API reference" },
  { path: "/.well-known/api-catalog", rel: "api-catalog", type: "application/linkset+json", title: "API catalog (RFC 9727)" },
  { path: "/.well-known/agent-card.json", rel: "agent-card", type: "application/json", title: "Agent card" },
  { path: "/.well-known/agent-skills/index.json", rel: "agent-skills", type: "application/json", title: "Agent skills index" },
  { path: PATTERN_INDEX_PATH, rel: "patterns", type: "application/json", title: "Page patterns: pick one before writing a page's HTML" },
  { path: "/llms.txt", rel: "llms-txt", type: "text/plain", title: "Plain-text summary for language models" },
  { path: "/.well-known/oauth-protected-resource/mcp", rel: "oauth-protected-resource", type: "application/json", title: "OAuth protected-resource metadata of /mcp (RFC 9728)" },
  { path: "/.well-known/oauth-authorization-server", rel: "oauth-authorization-server", type: "application/json", title: "OAuth authorization server metadata (RFC 8414)" },
] as const;

export const SKILL_PATH = "/.well-known/agent-skills/htmldrop/SKILL.md";

/** Value of the Link header on the landing page (RFC 8288), relative to the page's origin. */
export function discoveryLinkHeader(): string {
  return DISCOVERY_DOCUMENTS.map((doc) => `<${doc.path}>; rel="${doc.rel}"; type="${doc.type}"`).join(", ");
}
