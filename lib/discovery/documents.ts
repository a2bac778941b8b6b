import { PATTERN_INDEX_PATH, publicPatternIndex } from "@/lib/patterns";
import { INLINE_VIEW_SUMMARY } from "@/lib/mcp/apps";
import { connectGuides } from "./connect";
import { discoveryFacts, errorGuide, mcpToolSummaries } from "./facts";
import { buildOnboardingMarkdown, cliMarkdown } from "./onboard";
import { DISCOVERY_DOCUMENTS, SKILL_PATH } from "./links";
import { OPERATIONS, OPERATOR_SECRETS, type Operation } from "@/lib/api/operations";

// The well-known discovery documents. Each restates the onboarding guide's facts from the same sources.

export const SKILL_NAME = "htmldrop";
const SKILL_DESCRIPTION =
  "Publish self-contained HTML reports, dashboards and pages to htmldrop and share a stable URL, following a page pattern (PR explainer, status report, design proposal, data report, decision record); update them as new versions, tag them with metadata, gate them with a passcode, let links expire, see whether anyone viewed them, and read viewers' comments and resolve them with the next version.";

/** A2A-style agent card describing the service, its skills and how to authenticate. */
export function buildAgentCard() {
  const f = discoveryFacts();
  return {
    protocolVersion: "0.3.0",
    name: f.name,
    description: f.summary,
    url: f.publicUrl,
    version: f.apiVersion,
    documentationUrl: f.onboardUrl,
    provider: { organization: f.name, url: f.publicUrl },
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    additionalInterfaces: [
      { url: f.mcpUrl, transport: "MCP" },
      { url: f.apiBase, transport: "HTTP+JSON" },
    ],
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", bearerFormat: `${f.tokenPrefix}_<base62>`, description: `Device-code sign-in: POST ${f.apiBase}/auth/start, then poll GET ${f.apiBase}/auth/poll.` },
      oauth2: {
        type: "oauth2",
        description: `OAuth 2.1 for MCP clients given only ${f.mcpUrl}: authorization code with PKCE S256, resource=${f.oauth.mcpResource} (RFC 8707; ${f.oauth.apiResource} for the REST API), dynamic registration or a Client ID Metadata Document. Protected-resource metadata: ${f.oauth.mcpResourceMetadataUrl}.`,
        oauth2MetadataUrl: f.oauth.authorizationServerMetadataUrl,
        flows: {
          authorizationCode: {
            authorizationUrl: f.oauth.authorizationUrl,
            tokenUrl: f.oauth.tokenUrl,
            refreshUrl: f.oauth.tokenUrl,
            scopes: Object.fromEntries(f.oauth.scopes.map((scope) => [scope.name, scope.description])),
          },
        },
      },
    },
    // Either scheme: an API token, or an OAuth access token.
    security: [{ bearerAuth: [] }, { oauth2: f.oauth.scopes.map((scope) => scope.name) }],
    defaultInputModes: ["application/json", "text/html"],
    defaultOutputModes: ["application/json"],
    skills: [
      { id: "publish_html", name: "Publish HTML", description: "Publish a self-contained HTML document at a stable public URL (POST /api/drops, MCP create_drop).", tags: ["html", "publish", "share"], examples: ["Publish this report and give me the link."] },
      { id: "update_drop", name: "Update a drop", description: "Upload new HTML as the next version at the same URL (PUT /api/drops/{slug}, MCP update_drop); change fields with PATCH (patch_drop).", tags: ["versions", "update"], examples: ["Update the weekly report with today's numbers."] },
      { id: "find_drops", name: "Find drops by tag", description: "List your drops filtered by metadata tags, to update a drop you published earlier (GET /api/drops?metadata.<key>=<value>, MCP list_drops).", tags: ["metadata", "search"], examples: ["Find the drop tagged project=alpha."] },
      { id: "passcode", name: "Gate with a passcode", description: "Set, change or remove a soft passcode gate (POST /api/drops/{slug}/passcode, MCP set_passcode).", tags: ["passcode", "share"], examples: ["Protect this page with a passcode."] },
      { id: "versions", name: "Manage versions", description: "List, read, compare and delete versions of a drop (MCP list_versions, get_version, diff_versions, delete_version).", tags: ["versions"], examples: ["Show me version 2 of the report.", "What changed between version 2 and 3?"] },
      { id: "expiry", name: "Expiring links", description: "Make a link stop working after a time with ttl_seconds or expires_at on any write; afterwards it answers 410 Gone (MCP create_drop, update_drop, patch_drop).", tags: ["expiry", "share"], examples: ["Share this for a week only."] },
      { id: "comments", name: "Review loop", description: "Let viewers comment (PATCH comments: signed_in or anyone); before revising, read the open comments (GET /api/drops/{slug}/comments?status=open, MCP list_comments), then resolve those a new version addresses with PUT's resolves (MCP update_drop) or answer them (reply_to_comment, resolve_comment).", tags: ["comments", "review", "feedback"], examples: ["Revise the report with what the reviewers asked for."] },
      { id: "patterns", name: "Page patterns", description: `Before writing a page's HTML, pick the pattern whose triggers match the request (a pull-request explainer, a status report, a design proposal, a data report, a decision record, or the account's own) and follow its guide and template (GET ${PATTERN_INDEX_PATH}, GET /api/patterns, MCP list_patterns, get_pattern and the prompts of the same names).`, tags: ["patterns", "templates", "writing"], examples: ["Write up this pull request for the reviewers and share it.", "Publish this week's status report."] },
      { id: "view_stats", name: "View stats", description: "See whether anyone looked: views per day and per version (GET /api/drops/{slug}/stats, MCP drop_stats).", tags: ["views", "stats"], examples: ["Has anyone opened the report I shared yesterday?"] },
    ].map((skill) => ({ ...skill, inputModes: ["application/json"], outputModes: ["application/json"] })),
  };
}

/** RFC 9727 API catalog: a linkset whose anchor is the API and whose links are its description documents. */
export function buildApiCatalog() {
  const f = discoveryFacts();
  const onboard = { href: f.onboardUrl, type: "text/markdown", title: "Onboarding guide for agents" };
  const patterns = { href: `${f.publicUrl}${PATTERN_INDEX_PATH}`, type: "application/json", title: "Page patterns: what a good page of each kind looks like" };
  return {
    linkset: [
      {
        anchor: f.apiBase,
        "service-desc": [{ href: f.openapiUrl, type: "application/openapi+json", title: `htmldrop API ${f.apiVersion}` }],
        "service-doc": [{ href: f.docsUrl, type: "text/html", title: "API reference" }, onboard, patterns],
        "service-meta": [{ href: `${f.publicUrl}/.well-known/agent-card.json`, type: "application/json", title: "Agent card" }],
        describedby: [{ href: `${f.publicUrl}/llms.txt`, type: "text/plain", title: "Plain-text summary" }],
      },
      {
        anchor: f.mcpUrl,
        "service-doc": [onboard, patterns],
        "service-meta": [{ href: `${f.publicUrl}/.well-known/agent-skills/index.json`, type: "application/json", title: "Agent skills" }],
      },
    ],
  };
}

export function buildSkillsIndex() {
  const f = discoveryFacts();
  return {
    schema_version: f.schemaVersion,
    skills: [{ name: SKILL_NAME, description: SKILL_DESCRIPTION, type: "skill-md", url: `${f.publicUrl}${SKILL_PATH}` }],
  };
}

/** The skill file: front matter for skill loaders, then the onboarding guide itself. */
export function buildSkillMarkdown(): string {
  return `---\nname: ${SKILL_NAME}\ndescription: ${SKILL_DESCRIPTION}\n---\n\n${buildOnboardingMarkdown()}`;
}

/** What an endpoint in llms.txt needs: an account's token, an operator's secret, or nothing. */
function credentialNote(operation: Operation): string {
  if (operation.auth) return " (token)";
  return operation.operatorSecret ? ` (${OPERATOR_SECRETS[operation.operatorSecret].variable})` : "";
}

/** llms.txt: the summary an agent reads first, pointing to the full documents. */
export function buildLlmsTxt(): string {
  const f = discoveryFacts();
  return [
    `# ${f.name}`,
    `> ${f.summary}`,
    `schema version: ${f.schemaVersion}\napi version: ${f.apiVersion}\nbase url: ${f.publicUrl}`,
    `Start here: ${f.onboardUrl} (Markdown; JSON with Accept: application/json). Sign in with the device-code flow (POST /api/auth/start, then poll GET /api/auth/poll?token=<poll_token> every poll_interval seconds), keep the token in an environment variable or secret store (never in a drop), send it as Authorization: Bearer <token>, publish with POST /api/drops {title, html}, update with PUT /api/drops/{slug} {html} (new version), change fields with PATCH. No upsert: list with metadata.<key>=<value> filters, PUT to the first match, else POST; serialize concurrent writers. Links can expire: ttl_seconds (seconds from now) or expires_at (Unix ms; null removes it) on any write, after which the viewer and raw answer 410 Gone and the drop is deleted ${f.expiredDeletion}; list with expired=true|false. Whether anyone looked: GET /api/drops/{slug}/stats?days=${f.statsDays.default} (MCP drop_stats), views per UTC day and per version. Comments (off until PATCH {"comments": "signed_in"|"anyone"}): before revising, GET /api/drops/{slug}/comments?status=open (MCP list_comments; since=<newest created_at> to poll), address them, then PUT with resolves: [ids] to resolve each with a reply naming the new version. Before writing a page, pick the pattern whose triggers match the request from ${f.publicUrl}${PATTERN_INDEX_PATH} (the account's own too: GET /api/patterns, MCP list_patterns and prompts), then follow its guide and start from its template.`,
    `## Command line\n${cliMarkdown(f)}`,
    `## Documents\n${DISCOVERY_DOCUMENTS.map((doc) => `- [${doc.title}](${f.publicUrl}${doc.path})`).join("\n")}\n- [Agent skill](${f.publicUrl}${SKILL_PATH})`,
    `## Page patterns (${f.publicUrl}${PATTERN_INDEX_PATH})\n${publicPatternIndex().patterns.map((pattern) => `- [${pattern.name}](${pattern.url}): ${pattern.description}`).join("\n")}`,
    `## Endpoints\n${OPERATIONS.map((op) => `- ${op.method.toUpperCase()} ${op.path}${credentialNote(op)}: ${op.summary}`).join("\n")}`,
    `## Connect an assistant by URL (OAuth)\nGive an MCP client only ${f.mcpUrl}; it discovers htmldrop's OAuth server (${f.oauth.mcpResourceMetadataUrl}, ${f.oauth.authorizationServerMetadataUrl}) and the human approves it in the browser.\n${connectGuides(f).map((guide) => `- ${guide.client}: ${guide.summary}`).join("\n")}`,
    `## MCP (${f.mcpUrl}, bearer token on every request: an API token, or an OAuth access token issued for ${f.oauth.mcpResource})\n${mcpToolSummaries().map((tool) => `- ${tool.name} ${tool.args}: ${tool.description}`).join("\n")}\n${INLINE_VIEW_SUMMARY}`,
    `## Limits\n${f.limitList.map(([name, value]) => `- ${name}: ${value}`).join("\n")}`,
    `## Error codes (switch on error.code; 429 and 503 carry Retry-After)\n${errorGuide().map((entry) => `- ${entry.code} (${entry.status}): ${entry.meaning}`).join("\n")}`,
  ].join("\n\n") + "\n";
}
