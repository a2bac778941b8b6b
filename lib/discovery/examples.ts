import { publicUrl } from "@/lib/drops/public-urls";
import type { DiscoveryFacts } from "./facts";

// Example payloads for the OpenAPI document and the guides, built from the running configuration.
// The discovery tests validate every example against the schema it illustrates.

const CREATED_AT = 1_767_225_600_000;
const SLUG = "k3v9x2mq7w";

export function exampleHtml(title: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>Published by an agent.</p></body></html>`;
}

function resourceMetadata(facts: DiscoveryFacts, name: "mcp" | "api") {
  return {
    resource: name === "mcp" ? facts.oauth.mcpResource : facts.oauth.apiResource,
    authorization_servers: [facts.oauth.issuer],
    scopes_supported: facts.oauth.scopes.map((scope) => scope.name),
    bearer_methods_supported: ["header"],
    resource_name: name === "mcp" ? "htmldrop MCP endpoint" : "htmldrop REST API",
    resource_documentation: facts.docsUrl,
  };
}

export function buildExamples(facts: DiscoveryFacts) {
  const drop = {
    slug: SLUG,
    title: "Weekly report",
    description: "Numbers for week 1",
    url: publicUrl(facts.publicUrl, SLUG),
    raw_url: publicUrl(facts.contentOrigin, SLUG, "raw"),
    locked: false,
    latest_version: 2,
    view_count: 14,
    metadata: { project: "alpha", kind: "weekly-report" },
    created_at: CREATED_AT,
    updated_at: CREATED_AT + 3_600_000,
  };
  // A viewer's question on version 1, and the owner's answer when version 2 resolved it (PUT with resolves).
  const question = {
    id: "Q7mN2pR4sT6vW8xY0zA1",
    version: 1,
    body: "The totals row looks off: should it include the refunds?",
    // The passage Dana selected on the viewer page: the text itself, with a little text either side.
    anchor: { exact: "Total: 1,204", prefix: "Refunds: 96 ", suffix: " Margin: 18%" },
    author: { name: "Dana", kind: "guest" },
    created_at: CREATED_AT + 1_800_000,
    resolved_at: CREATED_AT + 3_600_000,
  };
  const answer = {
    id: "b3C5d7E9f1G3h5J7k9L1",
    version: 2,
    body: "Resolved in version 2.",
    author: { name: "alice", kind: "owner" },
    created_at: CREATED_AT + 3_600_000,
    resolved_at: CREATED_AT + 3_600_000,
    reply_to: question.id,
  };
  const patternMarkdown = "---\nname: status-report\ndescription: A weekly or project status report: the headline first, then progress, metrics, risks and next steps.\ntriggers:\n  - weekly status report\n  - summarize this week\ntemplate: status-report.template.html\n---\n\n# Status report\n\n## When to use\n…";
  const pattern = {
    name: "status-report",
    title: "Status report",
    description: "A weekly or project status report: the headline first, then progress, metrics, risks and next steps.",
    triggers: ["weekly status report", "summarize this week"],
    source: "builtin",
    has_template: true,
    url: `${facts.publicUrl}/.well-known/patterns/status-report.md`,
    template_url: `${facts.publicUrl}/.well-known/patterns/status-report.template.html`,
    updated_at: null,
  };
  const tokenSummary = {
    id: "3f9a1c0b7d2e",
    label: "laptop",
    created_at: CREATED_AT,
    last_used_at: CREATED_AT + 60_000,
    scopes: ["drops:read", "drops:write", "tokens:manage"],
    drops: null,
    expires_at: null,
  };
  return {
    CreateDropBody: { title: "Weekly report", html: exampleHtml("Weekly report"), description: "Numbers for week 1", metadata: { project: "alpha", kind: "weekly-report" } },
    ReplaceDropBody: { html: exampleHtml("Weekly report, revised"), context: "Fixed the totals row after re-reading the source data." },
    PatchDropBody: { title: "Weekly report (final)", metadata: { project: "alpha", kind: "weekly-report", status: "final" } },
    SetPasscodeBody: { passcode: "correct horse" },
    AuthStartBody: { label: "laptop" },
    AuthStart: {
      code: "WDJB-MJHT",
      verification_url: `${facts.publicUrl}/verify?code=WDJB-MJHT`,
      poll_token: "pt_6Jk2Qm9XvR4sTn8LbW1cYe",
      expires_in: facts.limits.deviceCodeTtlSeconds,
      poll_interval: facts.limits.pollIntervalSeconds,
    },
    AuthPoll: { status: "verified", api_token: `${facts.tokenPrefix}_0123456789abcdefghijABCDEFGHIJ0123456789`, user_id: "usr_8d1e4b" },
    Drop: drop,
    CreatedDrop: { ...drop, latest_version: 1, view_count: 0, updated_at: CREATED_AT },
    DropList: {
      data: [drop],
      pagination: { page: 1, page_size: facts.limits.pageSizeDefault, total_items: 1, total_pages: 1, sort_by: "created_at", sort_order: "desc" },
    },
    Version: { slug: SLUG, version: 2, size_bytes: 812, context: "Fixed the totals row after re-reading the source data.", created_at: CREATED_AT + 3_600_000, is_latest: true },
    VersionListItem: [
      { version: 1, size_bytes: 790, has_context: false, created_at: CREATED_AT },
      { version: 2, size_bytes: 812, has_context: true, created_at: CREATED_AT + 3_600_000 },
    ],
    // A week of views of the Drop above: the days add up to total_views, and so do the versions.
    DropStats: {
      slug: SLUG,
      days: 7,
      from: "2026-01-01",
      to: "2026-01-07",
      total_views: 14,
      view_count: 14,
      daily: [3, 5, 0, 2, 0, 1, 3].map((views, index) => ({ date: `2026-01-0${index + 1}`, views })),
      versions: [
        { version: 1, views: 8 },
        { version: 2, views: 6 },
      ],
    },
    // What POST …/comments answers for the CreateCommentBody below.
    Comment: { id: "R2s4T6u8V0w2X4y6Z8a0", version: 2, body: "Fixed: refunds are now a row of their own.", author: { name: "alice", kind: "owner" }, created_at: CREATED_AT + 3_660_000, reply_to: question.id },
    CommentList: { data: [question, answer], pagination: { page: 1, page_size: facts.limits.pageSizeDefault, total_items: 2, total_pages: 1 } },
    // The same question while still open: what GET …/comments?status=open answers before version 2.
    OpenCommentList: { data: [{ ...question, resolved_at: undefined }], pagination: { page: 1, page_size: facts.limits.pageSizeDefault, total_items: 1, total_pages: 1 } },
    CreateCommentBody: { body: "Fixed: refunds are now a row of their own.", reply_to: question.id },
    PatchCommentBody: { resolved: true },
    PurgeResult: { purged: 3, cutoff: CREATED_AT - 7 * 86_400_000 },
    // What an open viewer of the Drop above reads once version 2 is published.
    LiveVersion: { latest_version: 2 },
    Me: { user_id: "usr_8d1e4b", created_at: CREATED_AT, drop_count: 3, token: tokenSummary },
    TokenListItem: [
      { ...tokenSummary, revoked_at: null, kind: "api_token" },
      // An app connected through OAuth: listed under the name it gave itself, revoked like a token.
      {
        id: "9b0e5d7c2a41",
        label: "Claude",
        created_at: CREATED_AT + 7_200_000,
        last_used_at: CREATED_AT + 7_260_000,
        scopes: ["drops:read", "drops:write", "tokens:manage"],
        drops: null,
        expires_at: null,
        revoked_at: null,
        kind: "oauth",
        client_id: "https://claude.ai/oauth/mcp-oauth-client-metadata",
      },
    ],
    CreateTokenBody: { label: "ci: weekly report", scopes: ["drops:read", "drops:write"], drops: [SLUG], expires_at: CREATED_AT + 30 * 86_400_000 },
    CreatedToken: {
      token: `${facts.tokenPrefix}_9zYxWvUtSrQpOnMlKjIhGfEdCbA9876543210zyx`,
      id: "a4c2e8f01b3d",
      label: "ci: weekly report",
      scopes: ["drops:read", "drops:write"],
      drops: [SLUG],
      expires_at: CREATED_AT + 30 * 86_400_000,
      created_at: CREATED_AT,
    },
    PatternIndex: {
      version: 1,
      patterns: [
        {
          name: "status-report",
          description: "A weekly or project status report: the headline first, then progress, metrics, risks and next steps.",
          triggers: ["weekly status report", "summarize this week"],
          url: `${facts.publicUrl}/.well-known/patterns/status-report.md`,
          template_url: `${facts.publicUrl}/.well-known/patterns/status-report.template.html`,
        },
      ],
    },
    PatternList: { patterns: [pattern, { ...pattern, name: "release-notes", title: "Release notes", description: "Our release notes: changes grouped by who they affect.", triggers: ["write the release notes"], source: "account", has_template: false, url: null, template_url: null, updated_at: CREATED_AT }] },
    Pattern: { ...pattern, markdown: patternMarkdown, template: "<!DOCTYPE html>\n<html lang=\"en\">…</html>" },
    SavePatternBody: { markdown: "---\nname: release-notes\ndescription: Our release notes: changes grouped by who they affect.\ntriggers:\n  - write the release notes\n---\n\n# Release notes\n\n## When to use\n…" },
    Onboarding: { instructions: "# htmldrop onboarding\n…", public_url: facts.publicUrl },
    McpResourceMetadata: resourceMetadata(facts, "mcp"),
    ApiResourceMetadata: resourceMetadata(facts, "api"),
    AuthorizationServerMetadata: {
      issuer: facts.oauth.issuer,
      authorization_endpoint: facts.oauth.authorizationUrl,
      token_endpoint: facts.oauth.tokenUrl,
      registration_endpoint: facts.oauth.registrationUrl,
      revocation_endpoint: facts.oauth.revocationUrl,
      jwks_uri: facts.oauth.jwksUrl,
      scopes_supported: ["openid", "offline_access", ...facts.oauth.scopes.map((scope) => scope.name)],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    },
  } as const;
}
