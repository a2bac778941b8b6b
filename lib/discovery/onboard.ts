import { buildExamples } from "./examples";
import { discoveryFacts, errorGuide, mcpToolSummaries, type DiscoveryFacts } from "./facts";
import { DISCOVERY_DOCUMENTS } from "./links";
import { OPERATIONS } from "./operations";

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

/** A prompt a human can paste into an agent to connect it. */
export function agentPrompt(facts: DiscoveryFacts): string {
  return `Read ${facts.onboardUrl} and follow it to sign in to htmldrop (I will approve the sign-in in my browser), keep the token in the ${facts.tokenEnvVar} environment variable, then publish your HTML reports there and give me their URLs.`;
}

export function buildOnboardingMarkdown(): string {
  const f = discoveryFacts();
  const ex = buildExamples(f);
  const auth = `Authorization: Bearer $${f.tokenEnvVar}`;
  const base = f.publicUrl;
  const sections = [
    `# ${f.name} onboarding for agents`,
    `${f.summary}\n\nBase URL: ${base}. API description: ${f.openapiUrl} (OpenAPI ${f.apiVersion}). Every request and response body is JSON with snake_case fields, and every error has the shape \`{"error": {"code", "message", "details?"}}\`: switch on \`error.code\`.`,

    `## 1. Sign in once (device code)\n\nAsk the service for a sign-in request. The \`label\` names this machine in the token list; it is optional.\n\n${http("POST", `${base}/api/auth/start`, [], ex.AuthStartBody)}\n\nThe answer:\n\n${json(ex.AuthStart)}\n\nShow \`verification_url\` and \`code\` to your human: they open the URL, sign in with their identity-provider account and confirm the code. Meanwhile poll every \`poll_interval\` seconds (default ${f.limits.pollIntervalSeconds}):\n\n${http("GET", `${base}/api/auth/poll?token=<poll_token>`)}\n\n- \`{"status": "pending"}\`: wait \`poll_interval\` seconds and poll again.\n- \`{"status": "verified", "api_token": "...", "user_id": "..."}\`: done. The token is shown exactly once: store it now.\n- \`{"status": "claimed"}\`: the token was already read by an earlier poll; start again if you lost it.\n- \`{"status": "expired"}\`: the request timed out (the human has ${f.limits.deviceCodeTtlSeconds} seconds; a verified token must be claimed within ${f.limits.deviceCodeTtlSeconds} seconds of the sign-in): start again.\n\n**Keep the token secret.** Store it in an environment variable (\`${f.tokenEnvVar}\`) or your platform's secret store, never in a drop, a prompt, a log, a commit or a URL. Tokens look like \`${f.tokenPrefix}_<base62>\`. Each machine runs this flow once and gets its own token for the same account; drops and quotas are shared. Send it on every other API call:\n\n\`\`\`text\n${auth}\n\`\`\`\n\nCheck it with \`GET ${base}/api/me\`. List tokens with \`GET ${base}/api/tokens\` (ids only, never plaintext) and revoke one with \`DELETE ${base}/api/tokens/{id}\`.`,

    `## 2. Publish\n\nSend one complete, self-contained HTML document (inline your CSS and scripts; external script and style sources are allowed). It is served as uploaded inside a sandboxed iframe.\n\n${http("POST", `${base}/api/drops`, [auth, "Idempotency-Key: <any unique string, optional>"], ex.CreateDropBody)}\n\nThe answer (status 201) is a Drop:\n\n${json(ex.CreatedDrop)}\n\nGive the human \`url\` (the viewer page); \`raw_url\` serves the HTML alone. Optional fields: \`description\`, \`passcode\`, \`context\` (your reasoning trace, shown to viewers under a toggle; opt-in) and \`metadata\` (owner-only string tags). The optional \`Idempotency-Key\` header makes a retried POST safe: the same key within 24 hours returns the first response instead of a second drop. Use a new key for new content: a key reused for a different request is refused with 400 \`invalid_arg\`.`,

    `## 3. Iterate: PUT creates a new version\n\nThe URL stays the same; \`latest_version\` becomes the new version's number; viewers see the latest unless they pin \`?v=N\`.\n\n${http("PUT", `${base}/api/drops/<slug>`, [auth, 'If-Match: "<latest_version you edited>"  (optional)'], ex.ReplaceDropBody)}\n\n\`html\` is required; \`title\`, \`description\`, \`context\` and \`metadata\` are optional. \`metadata\`, when given, replaces the whole map (\`{}\` clears it; omitted leaves it unchanged). With \`If-Match\` the write is refused with 409 \`version_conflict\` when someone published after the version you edited; without it, a 409 \`version_conflict\` still means a concurrent PUT took the next number first. Either way: GET the drop, reapply your change, retry.`,

    `## 4. PATCH changes fields without a new version\n\n${http("PATCH", `${base}/api/drops/<slug>`, [auth], ex.PatchDropBody)}\n\nOnly \`title\`, \`description\` and \`metadata\` (same replace rule). Sending \`html\` is refused with 400 \`metadata_only_on_patch\`.`,

    `## 5. Find your drop again: lookup, then mutate\n\nThere is no server-side upsert. Tag drops with \`metadata\`, then:\n\n1. List with filters (all given pairs must match):\n\n${http("GET", `${base}/api/drops?metadata.project=alpha&metadata.kind=weekly-report`, [auth])}\n\n2. If \`data[0]\` exists, \`PUT ${base}/api/drops/<data[0].slug>\` with the new HTML.\n3. Otherwise \`POST ${base}/api/drops\` with the same metadata.\n\nThe race: two writers that both see an empty list each create a drop. Serialize writers that share tags (one process, a lock, or a queue). Other list parameters: \`page\` (from 1), \`pageSize\` (1 to ${f.limits.pageSizeMax}, default ${f.limits.pageSizeDefault}), \`sortBy\` (\`created_at\`, \`updated_at\`, \`view_count\`), \`sortOrder\` (\`asc\`, \`desc\`, default \`desc\`).`,

    `## 6. Passcodes\n\nA soft share gate, not encryption: viewers must enter it before the page shows the drop.\n\n${http("POST", `${base}/api/drops/<slug>/passcode`, [auth], ex.SetPasscodeBody)}\n\nAt least ${f.limits.passcodeMinChars} characters; \`{"passcode": ""}\` removes the gate. \`locked\` in the Drop says whether a gate is set. You may also pass \`passcode\` when creating. Give the passcode to the human separately from the URL.`,

    `## 7. Versions\n\n- \`GET ${base}/api/drops/<slug>/versions\`: every version (\`version\`, \`size_bytes\`, \`has_context\`, \`created_at\`).\n- \`GET ${base}/api/drops/<slug>/v/<n>\`: one version with its \`context\`.\n- \`DELETE ${base}/api/drops/<slug>/v/<n>\`: remove one; if it was the head, \`latest_version\` falls back. The only remaining version cannot be deleted (409 \`last_version_cannot_be_deleted\`).\n- \`${base}/p/<slug>?v=<n>\` shows a specific version; \`DELETE ${base}/api/drops/<slug>\` removes the drop and all versions (204).`,

    `## 8. Errors to switch on\n\n| code | status | meaning and what to do |\n|---|---|---|\n${errorGuide().map((entry) => `| \`${entry.code}\` | ${entry.status} | ${entry.meaning} |`).join("\n")}\n\nEvery 429 and 503 carries a \`Retry-After\` header and \`details.retry_after_seconds\` with the same number of seconds: wait that long, then retry.`,

    `## 9. Limits\n\n| limit | value |\n|---|---|\n${f.limitList.map(([name, value]) => `| ${name} | ${value} |`).join("\n")}`,

    `## 10. MCP\n\nThe same operations as MCP tools over Streamable HTTP (JSON-RPC) at \`POST ${f.mcpUrl}\`. Every request, \`initialize\` included, needs \`${auth}\`; the endpoint never starts a browser sign-in, so get the token with step 1 first. Client configuration:\n\n${json(mcpConfigSnippet(f))}\n\n| tool | arguments | same as |\n|---|---|---|\n${mcpToolSummaries().map((tool) => `| \`${tool.name}\` | \`${tool.args}\` | ${tool.mirrors} |`).join("\n")}\n\nEach tool returns the JSON the REST call returns as \`structuredContent\` (and as text); a failure returns \`isError: true\` with the Error object.`,

    `## All endpoints\n\n| method | path | token | what |\n|---|---|---|---|\n${OPERATIONS.map((op) => `| ${op.method.toUpperCase()} | \`${op.path}\` | ${op.auth ? "yes" : "no"} | ${op.summary} |`).join("\n")}`,

    `## Other discovery documents\n\n${DISCOVERY_DOCUMENTS.map((doc) => `- ${doc.title}: ${base}${doc.path}`).join("\n")}`,
  ];
  return `${sections.join("\n\n")}\n`;
}
