import { PATTERN_CATALOG_PATH, PATTERN_INDEX_PATH, PATTERN_INDEX_URI, PATTERN_RESOURCE_ROOT, publicPatternIndex } from "@/lib/patterns";
import { INLINE_VIEW_SUMMARY } from "@/lib/mcp/apps";
import { connectGuides, publicUrlNote } from "./connect";
import { buildExamples } from "./examples";
import { discoveryFacts, errorGuide, mcpChallenge, mcpToolSummaries, type DiscoveryFacts } from "./facts";
import { DISCOVERY_DOCUMENTS } from "./links";
import { OPERATIONS, OPERATOR_SECRETS, requiredScope } from "@/lib/api/operations";

// The onboarding guide: what an agent reads to go from a base URL to a published drop.
// Every request below is an exact HTTP request an agent can send; URLs and limits are the running ones.

function http(method: string, url: string, headers: string[] = [], body?: unknown): string {
  const lines = [`${method} ${url}`, ...headers];
  if (body !== undefined) lines.push("Content-Type: application/json", "", JSON.stringify(body, null, 2));
  return ["```http", ...lines, "```"].join("\n");
}

function json(value: unknown): string {
  return ["```json", JSON.stringify(value, null, 2), "```"].join("\n");
}

export function mcpConfigSnippet(facts: DiscoveryFacts) {
  return { mcpServers: { [facts.name]: { type: "http", url: facts.mcpUrl, headers: { Authorization: `Bearer \${${facts.tokenEnvVar}}` } } } };
}

/** Adding htmldrop by URL, client by client, in Markdown. */
export function connectByUrlMarkdown(f: DiscoveryFacts): string {
  const guides = connectGuides(f).map((guide) => {
    const steps = guide.steps.map((step, index) => `${index + 1}. ${step}`).join("\n");
    const config = guide.config ? `\n\n\`${guide.config.file}\`:\n\n${json(guide.config.json)}` : "";
    return `**${guide.client}**\n\n${steps}${config}`;
  });
  return `Assistants that are given only a URL sign the human in with OAuth; no token is copied anywhere. The URL is \`${f.mcpUrl}\`.\n\n${publicUrlNote(f)}\n\n${guides.join("\n\n")}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** What an OAuth client developer needs: discovery, registration, the flow, tokens. */
export function oauthDetailsMarkdown(f: DiscoveryFacts): string {
  const o = f.oauth;
  const hours = o.accessTokenTtlSeconds / 3600;
  const days = o.refreshTokenTtlSeconds / 86_400;
  return [
    `htmldrop is its own OAuth 2.1 authorization server (issuer \`${o.issuer}\`), following the MCP authorization specification:`,
    "",
    `- A request to \`${f.mcpUrl}\` without a valid token is answered 401 with \`WWW-Authenticate: ${mcpChallenge(f)}\`.`,
    `- Protected-resource metadata (RFC 9728): ${o.mcpResourceMetadataUrl} (also at ${f.publicUrl}/.well-known/oauth-protected-resource) for MCP, ${o.apiResourceMetadataUrl} for the REST API.`,
    `- Authorization-server metadata (RFC 8414): ${o.authorizationServerMetadataUrl}, and the same document at ${o.openidConfigurationUrl}.`,
    `- Clients identify themselves with a Client ID Metadata Document (\`client_id\` is the https URL of the document) or register at \`POST ${o.registrationUrl}\` (RFC 7591; public clients only, \`token_endpoint_auth_method: "none"\`). Redirect URIs match exactly; they are https, an app's own scheme (\`cursor://…\`), or loopback http (\`http://127.0.0.1\`, \`[::1]\` or \`localhost\`) on any port.`,
    `- Authorization code flow with PKCE (\`code_challenge_method=S256\`, required) at ${o.authorizationUrl}, and \`resource=${o.mcpResource}\` (RFC 8707, required; \`${o.apiResource}\` for the REST API: a token for one is refused by the other). The human signs in, sees the app's name, its redirect host and the scopes, and approves or denies; the redirect carries \`code\`, \`state\` and \`iss\` (RFC 9207), or \`error=access_denied\`.`,
    `- Scopes: ${o.scopes.map((scope) => `\`${scope.name}\` (${lowerFirst(scope.description)})`).join(", ")}.`,
    `- Tokens from \`POST ${o.tokenUrl}\` (form fields \`grant_type\`, \`code\`, \`code_verifier\`, \`redirect_uri\`, \`client_id\`, \`resource\`): access tokens live ${hours} hour${hours === 1 ? "" : "s"}; each refresh returns a new refresh token valid for ${days} days, and presenting an old one again revokes the whole grant. Revoke with \`POST ${o.revocationUrl}\` (RFC 7009).`,
    `- Connected apps appear in \`GET ${f.apiBase}/tokens\` with \`kind: "oauth"\`, their \`client_id\` and the app's name as \`label\`; \`DELETE ${f.apiBase}/tokens/{id}\` (or the dashboard's tokens page) ends a grant, refresh token included.`,
  ].join("\n");
}

/** How an agent picks a pattern before writing a page, with the built-in catalog listed. */
function patternsMarkdown(f: DiscoveryFacts): string {
  const { patterns } = publicPatternIndex();
  const list = patterns.map((pattern) => `- \`${pattern.name}\`: ${pattern.description} Triggers: ${pattern.triggers.map((trigger) => `"${trigger}"`).join(", ")}.`).join("\n");
  return [
    "### First, pick a pattern",
    "",
    "A pattern says what a good page of one kind looks like: when to use it, a content checklist, the layout and what not to do, with a " +
      "self-contained starting template. Before you write the HTML, pick the pattern whose triggers match what you were asked for, read its " +
      "guide, start from its template and go through its checklist. The public catalog (no token):",
    "",
    http("GET", `${f.publicUrl}${PATTERN_INDEX_PATH}`),
    "",
    `lists each pattern's \`url\` (the Markdown guide, \`${PATTERN_CATALOG_PATH}/<name>.md\`) and \`template_url\` (\`<name>.template.html\`). Built in:`,
    "",
    list,
    "",
    `Your account may keep its own patterns, which come before a built-in one of the same name and are never public: \`GET ${f.apiBase}/patterns\` ` +
      `lists yours and the built-in ones (\`drops:read\`); \`GET ${f.apiBase}/patterns/<name>\` returns one with its \`markdown\` and \`template\`; ` +
      `\`PUT ${f.apiBase}/patterns/<name>\` with \`{"markdown", "template"?}\` saves one (\`drops:write\`; the front matter's \`name\` must be \`<name>\`), ` +
      `and \`DELETE\` removes it. People manage them on the dashboard's Patterns page; over MCP they are tools, prompts and resources (section 11).`,
  ].join("\n");
}

/** The command-line client: the same flows as one command each, for agents in a terminal and CI jobs. */
export function cliMarkdown(f: DiscoveryFacts): string {
  const { packageName, command } = f.cli;
  return (
    `**From a terminal or CI**, the \`${command}\` command does all of this for you (\`npm install -g ${packageName}\`, or \`npx ${packageName} <command>\`): ` +
    `\`${command} login --url ${f.publicUrl}\` runs the device-code sign-in and keeps the token in your config folder (mode 0600), ` +
    `\`${command} publish report.html\` prints the drop's URL, \`--upsert pr=42\` follows the lookup-then-mutate recipe, ` +
    `\`${command} update <slug> report.html\` adds a version and \`${command} watch report.html\` publishes one per save. ` +
    `In CI it reads \`HTMLDROP_URL\` and \`${f.tokenEnvVar}\` instead of a login; \`${command} --help\` lists every command.`
  );
}

/** A prompt a human can paste into an agent to connect it. */
export function agentPrompt(facts: DiscoveryFacts): string {
  return `Read ${facts.onboardUrl} and follow it to sign in to htmldrop (I will approve the sign-in in my browser), keep the token in the ${facts.tokenEnvVar} environment variable, then publish your HTML reports there and give me their URLs.`;
}

function tokenColumn(operation: (typeof OPERATIONS)[number]): string {
  if (operation.operatorSecret) return `\`${OPERATOR_SECRETS[operation.operatorSecret].variable}\``;
  if (!operation.auth) return "no";
  const scope = requiredScope(operation);
  return scope ? `yes (\`${scope}\`)` : "yes";
}

export function buildOnboardingMarkdown(): string {
  const f = discoveryFacts();
  const ex = buildExamples(f);
  const auth = `Authorization: Bearer $${f.tokenEnvVar}`;
  const base = f.publicUrl;
  const sections = [
    `# ${f.name} onboarding for agents`,
    `${f.summary}\n\nBase URL: ${base}. API description: ${f.openapiUrl} (OpenAPI ${f.apiVersion}). Every request and response body is JSON with snake_case fields, and every error has the shape \`{"error": {"code", "message", "details?"}}\`: switch on \`error.code\`.\n\nAn assistant that takes an MCP server URL (Claude, ChatGPT, VS Code, Cursor, the MCP Inspector) needs none of the sign-in below: give it ${f.mcpUrl} and the human approves it in the browser (section 11, "Add by URL").\n\n${cliMarkdown(f)}`,

    `## 1. Sign in once (device code)\n\nAsk the service for a sign-in request. The \`label\` names this machine in the token list; it is optional.\n\n${http("POST", `${base}/api/auth/start`, [], ex.AuthStartBody)}\n\nThe answer:\n\n${json(ex.AuthStart)}\n\nShow \`verification_url\` and \`code\` to your human: they open the URL, sign in with their identity-provider account and confirm the code. Meanwhile poll every \`poll_interval\` seconds (default ${f.limits.pollIntervalSeconds}):\n\n${http("GET", `${base}/api/auth/poll?token=<poll_token>`)}\n\n- \`{"status": "pending"}\`: wait \`poll_interval\` seconds and poll again.\n- \`{"status": "verified", "api_token": "...", "user_id": "..."}\`: done. The token is shown exactly once: store it now.\n- \`{"status": "claimed"}\`: the token was already read by an earlier poll; start again if you lost it.\n- \`{"status": "expired"}\`: the request timed out (the human has ${f.limits.deviceCodeTtlSeconds} seconds; a verified token must be claimed within ${f.limits.deviceCodeTtlSeconds} seconds of the sign-in): start again.\n- \`{"status": "denied"}\`: the human pressed Deny (an addition to the four states, RFC 8628's \`access_denied\`): stop, and start again only if they ask you to.\n\n**Keep the token secret.** Store it in an environment variable (\`${f.tokenEnvVar}\`) or your platform's secret store, never in a drop, a prompt, a log, a commit or a URL. Tokens look like \`${f.tokenPrefix}_<base62>\`. Each machine runs this flow once and gets its own token for the same account; drops and quotas are shared. Send it on every other API call:\n\n\`\`\`text\n${auth}\n\`\`\`\n\nCheck it with \`GET ${base}/api/me\`. List tokens with \`GET ${base}/api/tokens\` (ids only, never plaintext) and revoke one with \`DELETE ${base}/api/tokens/{id}\`.\n\n**Scopes.** A token may do only what its scopes allow: \`drops:read\` (read drops and versions), \`drops:write\` (publish, change, delete, passcodes), \`tokens:manage\` (list, create, revoke tokens). It may also be limited to some drops and carry an expiry; \`GET ${base}/api/me\` shows its \`scopes\`, \`drops\` and \`expires_at\`. Ask for less when you need less: add \`"scopes": ["drops:read"]\` to the start body (the default is all three; the human sees them before approving). A token with \`tokens:manage\` can make a narrower one for a script with \`POST ${base}/api/tokens\` (\`{"label", "scopes", "drops", "expires_at"}\`, never more than it has itself). A call the token may not make is 403 \`forbidden\`, with \`details.required_scope\` naming a missing scope.`,

    `## 2. Publish\n\n${patternsMarkdown(f)}\n\n### Then send the page\n\nSend one complete, self-contained HTML document (inline your CSS and scripts; external script and style sources are allowed). It is served as uploaded inside a sandboxed iframe.\n\n${http("POST", `${base}/api/drops`, [auth, "Idempotency-Key: <any unique string, optional>"], ex.CreateDropBody)}\n\nThe answer (status 201) is a Drop:\n\n${json(ex.CreatedDrop)}\n\nGive the human \`url\` (the viewer page); \`raw_url\` serves the HTML alone. Optional fields: \`description\`, \`passcode\`, \`context\` (your reasoning trace, shown to viewers under a toggle; opt-in) and \`metadata\` (owner-only string tags). The optional \`Idempotency-Key\` header makes a retried POST safe: the same key within 24 hours returns the first response instead of a second drop. Use a new key for new content: a key reused for a different request is refused with 400 \`invalid_arg\`.\n\n**Links that expire.** When a link should stop working, add \`"ttl_seconds": 604800\` (seconds from now) or \`"expires_at"\` (Unix milliseconds), at most 10 years ahead, to this or any later write. From then on \`url\` and \`raw_url\` answer 410 Gone to everybody; you still see the drop, with \`"expired": true\`, and can extend it until it is deleted ${f.expiredDeletion}. A drop with an expiry carries \`expires_at\` and \`expired\`.`,

    `## 3. Iterate: PUT creates a new version\n\nThe URL stays the same; \`latest_version\` becomes the new version's number; viewers see the latest unless they pin \`?v=N\`.\n\n${http("PUT", `${base}/api/drops/<slug>`, [auth, 'If-Match: "<latest_version you edited>"  (optional)'], ex.ReplaceDropBody)}\n\n\`html\` is required; \`title\`, \`description\`, \`context\`, \`metadata\` and the expiry (\`ttl_seconds\` or \`expires_at\`) are optional. \`metadata\`, when given, replaces the whole map (\`{}\` clears it; omitted leaves it unchanged). \`resolves\` names the comments this version addresses (section 8). With \`If-Match\` the write is refused with 409 \`version_conflict\` when someone published after the version you edited; without it, a 409 \`version_conflict\` still means a concurrent PUT took the next number first. Either way: GET the drop, reapply your change, retry.`,

    `## 4. PATCH changes fields without a new version\n\n${http("PATCH", `${base}/api/drops/<slug>`, [auth], ex.PatchDropBody)}\n\nOnly \`title\`, \`description\`, \`metadata\` (same replace rule), the expiry (\`ttl_seconds\` or \`expires_at\`; \`"expires_at": null\` removes it) who may comment (\`comments\`, section 8) and whether search engines may index the drop (\`indexable\`, default false). Sending \`html\` is refused with 400 \`metadata_only_on_patch\`.`,

    `## 5. Find your drop again: lookup, then mutate\n\nThere is no server-side upsert. Tag drops with \`metadata\`, then:\n\n1. List with filters (all given pairs must match):\n\n${http("GET", `${base}/api/drops?metadata.project=alpha&metadata.kind=weekly-report`, [auth])}\n\n2. If \`data[0]\` exists, \`PUT ${base}/api/drops/<data[0].slug>\` with the new HTML.\n3. Otherwise \`POST ${base}/api/drops\` with the same metadata.\n\nThe race: two writers that both see an empty list each create a drop. Serialize writers that share tags (one process, a lock, or a queue). Other list parameters: \`page\` (from 1), \`pageSize\` (1 to ${f.limits.pageSizeMax}, default ${f.limits.pageSizeDefault}), \`sortBy\` (\`created_at\`, \`updated_at\`, \`view_count\`), \`sortOrder\` (\`asc\`, \`desc\`, default \`desc\`), \`expired\` (\`true\`: only drops past their expiry; \`false\`: only the others).`,

    `## 6. Passcodes\n\nA soft share gate, not encryption: viewers must enter it before the page shows the drop.\n\n${http("POST", `${base}/api/drops/<slug>/passcode`, [auth], ex.SetPasscodeBody)}\n\nAt least ${f.limits.passcodeMinChars} characters; \`{"passcode": ""}\` removes the gate. \`locked\` in the Drop says whether a gate is set. You may also pass \`passcode\` when creating. Give the passcode to the human separately from the URL.`,

    `## 7. Versions and views\n\n- \`GET ${base}/api/drops/<slug>/versions\`: every version (\`version\`, \`size_bytes\`, \`has_context\`, \`created_at\`).\n- \`GET ${base}/api/drops/<slug>/v/<n>\`: one version with its \`context\`.\n- \`DELETE ${base}/api/drops/<slug>/v/<n>\`: remove one; if it was the head, \`latest_version\` falls back. The only remaining version cannot be deleted (409 \`last_version_cannot_be_deleted\`).\n- \`${base}/p/<slug>?v=<n>\` shows a specific version; \`DELETE ${base}/api/drops/<slug>\` removes the drop and all versions (204).\n\nDid anyone look? \`GET ${base}/api/drops/<slug>/stats?days=${f.statsDays.default}\` (1 to ${f.statsDays.max} days, MCP \`drop_stats\`) answers the views of each UTC day, zeros included, and of each version. A view is a browser showing the viewer page; bots that say so, prefetches, views after the expiry, views of a locked drop without unlocking it and the owner's own views while signed in to htmldrop are not counted.`,

    `## 8. Comments: read them before you revise\n\nViewers can comment under a drop on its viewer page, on a passage they select in it. Comments are off until you turn them on: \`"signed_in"\` lets anyone with an htmldrop account comment, \`"anyone"\` guests too, under a name; \`"off"\` stops them. \`POST /api/drops\` takes \`comments\` as well; left out, a new drop gets the account's default, \`"off"\` unless its owner chose another on the dashboard's account page.\n\n${http("PATCH", `${base}/api/drops/<slug>`, [auth], { comments: "anyone" })}\n\nA drop with a passcode takes and shows comments only for viewers who unlocked it; an expired drop takes none. Then, before each revision:\n\n1. Read what is still open:\n\n${http("GET", `${base}/api/drops/<slug>/comments?status=open`, [auth])}\n\nThe answer lists what waits for you, oldest first (your own comments and replies, \`author.kind\` \`"owner"\`, never wait, so they are not listed as open). A comment made on a passage carries \`anchor\`: \`exact\` is the text the viewer selected in that \`version\`, \`prefix\` and \`suffix\` a little text either side of it:\n\n${json(ex.OpenCommentList)}\n\n2. Address them in the new HTML, and name the comments it addresses in \`resolves\`: each is resolved, with your reply "Resolved in version N." under it. An id the drop does not have fails the whole PUT with 400 \`invalid_arg\`, and nothing is written.\n\n${http("PUT", `${base}/api/drops/<slug>`, [auth], { ...ex.ReplaceDropBody, resolves: [ex.OpenCommentList.data[0].id] })}\n\n3. Answer without a new version with \`POST ${base}/api/drops/<slug>/comments\` (\`{"body", "reply_to"?, "quote"?, "anchor"?}\`, 201); resolve or reopen one with \`PATCH ${base}/api/drops/<slug>/comments/<id>\` (\`{"resolved": true}\` or \`false\`); delete one with \`DELETE\` on the same URL (204).\n\nTo poll for new comments, pass \`since\` = the \`created_at\` of the newest comment you have (Unix ms; only later ones are listed); \`version=<n>\` keeps the comments made on one version. MCP: \`list_comments\`, \`reply_to_comment\`, \`resolve_comment\` and \`update_drop\`'s \`resolves\`. Reading needs \`drops:read\`, the rest \`drops:write\`. Comments never count as writes; their limits are in section 10.`,

    `## 9. Errors to switch on\n\n| code | status | meaning and what to do |\n|---|---|---|\n${errorGuide().map((entry) => `| \`${entry.code}\` | ${entry.status} | ${entry.meaning} |`).join("\n")}\n\nEvery 429 and 503 carries a \`Retry-After\` header and \`details.retry_after_seconds\` with the same number of seconds: wait that long, then retry.`,

    `## 10. Limits\n\n| limit | value |\n|---|---|\n${f.limitList.map(([name, value]) => `| ${name} | ${value} |`).join("\n")}`,

    `## 11. MCP\n\nThe same operations as MCP tools over Streamable HTTP (JSON-RPC) at \`POST ${f.mcpUrl}\`. Every request, \`initialize\` included, needs a bearer token: your API token from step 1, or an OAuth access token that an MCP client gets by itself when it is given only the URL.\n\n### With your API token in a header\n\nFor clients that take headers (Claude Code's \`.mcp.json\`, Cursor's \`mcp.json\`; VS Code names the top-level key \`servers\`), with \`${auth}\`:\n\n${json(mcpConfigSnippet(f))}\n\n### Add by URL (OAuth)\n\n${connectByUrlMarkdown(f)}\n\n### OAuth, for client developers\n\n${oauthDetailsMarkdown(f)}\n\n### Tools\n\n| tool | arguments | same as |\n|---|---|---|\n${mcpToolSummaries().map((tool) => `| \`${tool.name}\` | \`${tool.args}\` | ${tool.mirrors} |`).join("\n")}\n\nEach tool returns the JSON the REST call returns as \`structuredContent\` (and as text); a failure returns \`isError: true\` with the Error object.\n\n### Prompts and resources\n\nEvery pattern is also a prompt named like it (\`prompts/list\`; \`prompts/get\` with an optional \`topic\` argument returns the pattern and its template as one message), which assistants that show prompts offer as a command. The catalog is readable as resources: \`${PATTERN_INDEX_URI}\` (the same JSON as \`GET ${f.apiBase}/patterns\`), \`${PATTERN_RESOURCE_ROOT}<name>.md\` and \`${PATTERN_RESOURCE_ROOT}<name>.template.html\`. Your account's own patterns are included when the token has \`drops:read\`.\n\n### Drops inline\n\n${INLINE_VIEW_SUMMARY}`,

    `## All endpoints\n\n| method | path | token (scope) | what |\n|---|---|---|---|\n${OPERATIONS.map((op) => `| ${op.method.toUpperCase()} | \`${op.path}\` | ${tokenColumn(op)} | ${op.summary} |`).join("\n")}`,

    `## Other discovery documents\n\n${DISCOVERY_DOCUMENTS.map((doc) => `- ${doc.title}: ${base}${doc.path}`).join("\n")}`,
  ];
  return `${sections.join("\n\n")}\n`;
}
