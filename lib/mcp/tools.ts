import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Caller } from "@/lib/accounts/credentials";
import { getConfig, type Config } from "@/lib/config";
import type { HotReadCall, RowRead } from "@/lib/db/reads";
import { dropRowRead } from "@/lib/drops/access";
import type { StoredDropRow } from "@/lib/drops/drop-rows";
import { describeCaller } from "@/lib/accounts/tokens";
import { createDrop, deleteDrop, deleteVersion, getDrop, getDropStats, getVersion, listDrops, listVersions, patchDrop, replaceDrop, setPasscode } from "@/lib/drops";
import { meSchema } from "@/lib/schemas/accounts";
import { listComments, postOwnerComment, setCommentResolved } from "@/lib/comments/comments";
import { commentListSchema, commentSchema } from "@/lib/schemas/comments";
import { diffVersions } from "@/lib/drops/diff";
import { dropListSchema, dropSchema, dropStatsSchema, parsePatchDropBody, versionDiffSchema, versionSchema } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";
import { deletePattern, getPattern, listPatterns, savePattern } from "@/lib/patterns";
import { deletePatternResultSchema, patternListSchema, patternSchema } from "@/lib/schemas/patterns";
import {
  createDropArgsSchema,
  deleteDropResultSchema,
  diffVersionsArgsSchema,
  dropRefArgsSchema,
  dropStatsArgsSchema,
  listCommentsArgsSchema,
  replyToCommentArgsSchema,
  resolveCommentArgsSchema,
  listDropsArgsSchema,
  memberRefArgsSchema,
  noArgsSchema,
  addTeamMemberArgsSchema,
  createTeamArgsSchema,
  removeTeamMemberArgsSchema,
  setMemberRoleArgsSchema,
  shareDropArgsSchema,
  teamRefArgsSchema,
  deletedWebhookResultSchema,
  retryDeliveryArgsSchema,
  updateWebhookArgsSchema,
  webhookRefArgsSchema,
  patchDropArgsSchema,
  patternRefArgsSchema,
  savePatternArgsSchema,
  setPasscodeArgsSchema,
  updateDropArgsSchema,
  versionListResultSchema,
  versionRefArgsSchema,
} from "@/lib/schemas/mcp";
import { addDropMember, listDropMembers, removeDropMember, setDropMemberRole } from "@/lib/sharing/members";
import { addTeamMember, createTeam, deleteTeam, getTeam, listTeams, removeTeamMember } from "@/lib/sharing/teams";
import { deletedTeamResultSchema, dropMemberListSchema, dropMemberSchema, removedResultSchema, teamListSchema, teamSchema } from "@/lib/schemas/sharing";
import { createWebhookBodySchema, createdWebhookSchema, deliveryListSchema, deliverySchema, webhookListSchema, webhookSchema } from "@/lib/schemas/webhooks";
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, retryDelivery, sendTestEvent, updateWebhook } from "@/lib/webhooks/endpoints";
import { mcpGuide } from "./guide";

/**
 * One tool: its name is an operation's `mcpTool` in the registry (lib/api/operations.ts), which gives
 * the scope and drop access it needs, the same as the REST operation's.
 */
export type McpTool = {
  name: string;
  title: string;
  /** Given how the REST operation it mirrors is named, as "GET /api/me". */
  description(rest: string): string;
  /** Advertised in tools/list; run() parses with the same schemas so errors carry the REST codes. */
  input: z.ZodType;
  /** The REST response shape placed in structuredContent. */
  output: z.ZodType;
  annotations: ToolAnnotations;
  /** Its result is a drop or one of its versions, which MCP Apps hosts show in the drop view (lib/mcp/drop-view.ts). */
  showsDrop?: true;
  /**
   * The row run() reads, named from the raw arguments before the caller is known, so that it is read
   * with the caller's token in one round trip (lib/mcp/http.ts), as the REST read it mirrors does.
   */
  alongside?(args: Record<string, unknown>): HotReadCall | null;
  /** `row`: what alongside named, read already (absent when it was not). */
  run(caller: Caller, args: Record<string, unknown>, row?: RowRead<unknown>): Promise<unknown>;
};

// Every tool acts only on the caller's own htmldrop account: a closed world.
const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function write(hints: { destructive: boolean; idempotent: boolean }): ToolAnnotations {
  return { readOnlyHint: false, destructiveHint: hints.destructive, idempotentHint: hints.idempotent, openWorldHint: false };
}

const toolsByConfig = new WeakMap<Config, McpTool[]>();

/** The tools, made once per configuration (their descriptions quote its limits): every tools/call looks one up. */
export function mcpTools(): McpTool[] {
  const config = getConfig();
  let tools = toolsByConfig.get(config);
  if (!tools) {
    tools = makeTools();
    toolsByConfig.set(config, tools);
  }
  return tools;
}

/** The eleven tools of the spec, then the additions; each is a thin adapter over the service its REST route calls. */
function makeTools(): McpTool[] {
  const guide = mcpGuide();
  return [
    {
      name: "whoami",
      title: "Who am I",
      description: (rest) =>
        "Returns the account behind the bearer token: user_id, drop_count and the token's id, label, scopes, drops and expiry (same as " + rest + "). " +
        "Needs no scope: call it to see what this token may do.",
      input: noArgsSchema,
      output: meSchema,
      annotations: READ,
      run: async (caller, args) => {
        parseInput(noArgsSchema, args);
        return describeCaller(caller);
      },
    },
    {
      name: "create_drop",
      title: "Publish a new drop",
      description: (rest) =>
        "Publishes a self-contained HTML document as a new drop (version 1) and returns it with its public url (same as " + rest + "). " +
        "Share url with people; raw_url serves the bare HTML. Set passcode for a soft share gate (not encryption), context to record your " +
        "reasoning with this version, metadata to tag the drop so you can find it again, ttl_seconds (or expires_at) for a link that should " +
        "stop working.\n\n" +
        [guide.recipe, guide.metadata, guide.limits].join("\n\n"),
      input: createDropArgsSchema,
      output: dropSchema,
      annotations: write({ destructive: false, idempotent: false }),
      showsDrop: true,
      run: async (caller, args) => (await createDrop(caller.userId, parseInput(createDropArgsSchema, args))).body,
    },
    {
      name: "get_drop",
      title: "Get a drop",
      description: (rest) => "Returns one of your drops by slug: title, urls, latest_version, locked, view_count and metadata (same as " + rest + ").",
      input: dropRefArgsSchema,
      output: dropSchema,
      annotations: READ,
      showsDrop: true,
      alongside: (args) => (typeof args.slug === "string" ? dropRowRead(args.slug) : null),
      run: async (caller, args, row) => getDrop(caller.userId, parseInput(dropRefArgsSchema, args).slug, row as RowRead<StoredDropRow> | undefined),
    },
    {
      name: "list_drops",
      title: "List and find drops",
      description: (rest) =>
        "Lists your drops, newest first by default, with pagination (same as " + rest + "). Filter with metadata to find a drop you tagged " +
        "earlier; this is the lookup step before update_drop. `shared: true` lists the drops others shared with you instead.\n\n" +
        guide.recipe,
      input: listDropsArgsSchema,
      output: dropListSchema,
      annotations: READ,
      run: async (caller, args) => {
        const query = parseInput(listDropsArgsSchema, args);
        return listDrops(caller.userId, {
          page: query.page,
          pageSize: query.page_size,
          sortBy: query.sort_by,
          sortOrder: query.sort_order,
          metadata: Object.entries(query.metadata ?? {}),
          expired: query.expired,
          shared: query.shared,
          onlySlugs: caller.drops,
        });
      },
    },
    {
      name: "update_drop",
      title: "Upload a new version",
      description: (rest) =>
        "Uploads new html to an existing drop as its next version; the url stays the same and now shows this version (same as " + rest + "). " +
        "title, description and metadata may change alongside; context is recorded with the new version. " +
        "A version_conflict error means another writer took the next version first: get_drop, then retry. resolves lists the ids of comments " +
        "this version addresses.\n\n" +
        [guide.versioning, guide.comments, guide.metadata, guide.limits].join("\n\n"),
      input: updateDropArgsSchema,
      output: dropSchema,
      // Old versions survive, but supplied title, description and metadata overwrite the current ones.
      annotations: write({ destructive: true, idempotent: false }),
      showsDrop: true,
      run: async (caller, args) => {
        const { slug, ...input } = parseInput(updateDropArgsSchema, args);
        return replaceDrop(caller.userId, slug, input);
      },
    },
    {
      name: "patch_drop",
      title: "Edit title, description, metadata or expiry",
      description: (rest) =>
        "Changes title, description, metadata and/or the expiry (ttl_seconds or expires_at; expires_at null removes it) without creating a " +
        "version; latest_version is unchanged (same as " + rest + "). comments turns viewers' comments on (\"signed_in\", \"anyone\") " +
        "or off. indexable: true lets search engines index the drop (they are told not to by default). To change the html use update_drop.\n\n" +
        guide.metadata,
      input: patchDropArgsSchema,
      output: dropSchema,
      annotations: write({ destructive: true, idempotent: true }),
      showsDrop: true,
      run: async (caller, args) => {
        const { slug: _slug, ...body } = args;
        const { slug } = parseInput(dropRefArgsSchema, { slug: args.slug });
        return patchDrop(caller.userId, slug, parsePatchDropBody(body));
      },
    },
    {
      name: "delete_drop",
      title: "Delete a drop",
      description: (rest) => "Deletes a drop with all its versions; its url stops working. Cannot be undone (same as " + rest + ").",
      input: dropRefArgsSchema,
      output: deleteDropResultSchema,
      annotations: write({ destructive: true, idempotent: true }),
      run: async (caller, args) => {
        const { slug } = parseInput(dropRefArgsSchema, args);
        await deleteDrop(caller.userId, slug);
        return { deleted: true, slug };
      },
    },
    {
      name: "list_versions",
      title: "List versions",
      description: (rest) => "Lists the versions of a drop, oldest first, with size and whether a context was recorded (same as " + rest + ", wrapped as {versions: [...]}).",
      input: dropRefArgsSchema,
      output: versionListResultSchema,
      annotations: READ,
      run: async (caller, args) => ({ versions: await listVersions(caller.userId, parseInput(dropRefArgsSchema, args).slug) }),
    },
    {
      name: "get_version",
      title: "Get a version",
      description: (rest) => "Returns one version of a drop: size, the context recorded with it, and whether it is the latest (same as " + rest + ").",
      input: versionRefArgsSchema,
      output: versionSchema,
      annotations: READ,
      showsDrop: true,
      run: async (caller, args) => {
        const { slug, version } = parseInput(versionRefArgsSchema, args);
        return getVersion(caller.userId, slug, version);
      },
    },
    {
      name: "diff_versions",
      title: "Compare two versions",
      description: (rest) =>
        "Returns what changed between two versions of a drop as a unified diff of their HTML (diff, files v<from>/index.html and v<to>/index.html), " +
        "with added_lines and removed_lines (same as " + rest + ", which answers the diff as text). Versions that differ too much " +
        "are refused with diff_too_large: then read both from raw_url with ?v=N.",
      input: diffVersionsArgsSchema,
      output: versionDiffSchema,
      annotations: READ,
      run: async (caller, args) => {
        const { slug, from, to } = parseInput(diffVersionsArgsSchema, args);
        const diff = await diffVersions(caller.userId, slug, from, to);
        return { slug, from, to, added_lines: diff.addedLines, removed_lines: diff.removedLines, diff: diff.unified };
      },
    },
    {
      name: "delete_version",
      title: "Delete a version",
      description: (rest) =>
        "Deletes one version of a drop and returns the updated drop; deleting the latest makes the highest remaining version the latest " +
        "(same as " + rest + "). The only remaining version cannot be deleted (last_version_cannot_be_deleted).",
      input: versionRefArgsSchema,
      output: dropSchema,
      annotations: write({ destructive: true, idempotent: true }),
      showsDrop: true,
      run: async (caller, args) => {
        const { slug, version } = parseInput(versionRefArgsSchema, args);
        return deleteVersion(caller.userId, slug, version);
      },
    },
    {
      name: "set_passcode",
      title: "Set or remove the passcode",
      description: (rest) =>
        `Sets or changes the passcode viewers must enter before the drop is shown (a soft share gate, not encryption); "" removes it. ` +
        "locked in the result tells whether a gate is set. Every call voids the unlocks viewers already have (same as " + rest + ").",
      input: setPasscodeArgsSchema,
      output: dropSchema,
      // Not idempotent: even the same passcode is hashed anew, which signs out every viewer.
      annotations: write({ destructive: true, idempotent: false }),
      showsDrop: true,
      run: async (caller, args) => {
        const { slug, passcode } = parseInput(setPasscodeArgsSchema, args);
        return setPasscode(caller.userId, slug, passcode);
      },
    },
    {
      name: "drop_stats",
      title: "Views over time",
      description: (rest) =>
        "Returns how often a drop was viewed in the last `days` UTC days (default 30, at most 365): one entry per day, zeros included, and the " +
        "views of each version (same as " + rest + "). Counted: a browser showing the viewer page. Not counted: bots that say so, " +
        "prefetches, the owner's own views while signed in, and, for a drop with a passcode, anyone who has not unlocked it.",
      input: dropStatsArgsSchema,
      output: dropStatsSchema,
      annotations: READ,
      run: async (caller, args) => {
        const { slug, days } = parseInput(dropStatsArgsSchema, args);
        return getDropStats(caller.userId, slug, days);
      },
    },
    {
      name: "list_comments",
      title: "Read viewers' comments",
      description: (rest) =>
        "Lists the comments viewers left on a drop, oldest first, with pagination (same as " + rest + "). status=open shows what still " +
        "needs an answer; since (the created_at of the newest comment you have) returns only newer ones, for polling; version narrows to one version.\n\n" +
        guide.comments,
      input: listCommentsArgsSchema,
      output: commentListSchema,
      annotations: READ,
      run: async (caller, args) => {
        const { slug, page_size, ...query } = parseInput(listCommentsArgsSchema, args);
        return listComments(caller.userId, slug, { ...query, pageSize: page_size });
      },
    },
    {
      name: "reply_to_comment",
      title: "Reply to a comment",
      description: (rest) =>
        "Posts a comment as the drop's owner, shown with the owner's badge (same as " + rest + "); reply_to answers a comment. " +
        "To resolve comments with a new version, pass their ids as resolves to update_drop instead: each gets a reply naming the version.",
      input: replyToCommentArgsSchema,
      output: commentSchema,
      annotations: write({ destructive: false, idempotent: false }),
      run: async (caller, args) => {
        const { slug, ...input } = parseInput(replyToCommentArgsSchema, args);
        return postOwnerComment(caller.userId, slug, input);
      },
    },
    {
      name: "resolve_comment",
      title: "Resolve or reopen a comment",
      description: (rest) => "Marks a comment resolved (resolved: true, the default) or open again (false) (same as " + rest + ").",
      input: resolveCommentArgsSchema,
      output: commentSchema,
      annotations: write({ destructive: false, idempotent: true }),
      run: async (caller, args) => {
        const { slug, id, resolved } = parseInput(resolveCommentArgsSchema, args);
        return setCommentResolved(caller.userId, slug, id, resolved);
      },
    },
    {
      name: "list_patterns",
      title: "List page patterns",
      description: (rest) =>
        "Lists the patterns for pages you may write: each has a name, a description and triggers (phrases a person might say when it fits), " +
        "and says whether it has a starting template (same as " + rest + "). Your account's own patterns replace built-in ones of the same name.\n\n" +
        guide.patterns,
      input: noArgsSchema,
      output: patternListSchema,
      annotations: READ,
      run: async (caller, args) => {
        parseInput(noArgsSchema, args);
        return { patterns: await listPatterns(caller.userId) };
      },
    },
    {
      name: "get_pattern",
      title: "Read a page pattern",
      description: (rest) =>
        "Returns one pattern: its Markdown guide (when to use it, a content checklist, the layout, what not to do) and its starting HTML template, " +
        "if it has one (same as " + rest + "). Follow the guide and start from the template, then publish with create_drop.",
      input: patternRefArgsSchema,
      output: patternSchema,
      annotations: READ,
      run: async (caller, args) => getPattern(caller.userId, parseInput(patternRefArgsSchema, args).name),
    },
    {
      name: "save_pattern",
      title: "Add or replace one of your patterns",
      description: (rest) =>
        "Saves a pattern for your account, replacing your own of that name (same as " + rest + "). markdown starts with YAML front matter " +
        "(name: the same name, description, triggers: a list of phrases, and template: <name>.template.html when you send template), then the guide. " +
        "Your patterns are never public; they come before built-in ones of the same name.",
      input: savePatternArgsSchema,
      output: patternSchema,
      annotations: write({ destructive: true, idempotent: true }),
      run: async (caller, args) => {
        const { name, ...input } = parseInput(savePatternArgsSchema, args);
        return (await savePattern(caller.userId, name, input)).pattern;
      },
    },
    {
      name: "delete_pattern",
      title: "Delete one of your patterns",
      description: (rest) => "Deletes one of your account's patterns; a built-in one of the same name applies again (same as " + rest + "). Built-in patterns cannot be deleted.",
      input: patternRefArgsSchema,
      output: deletePatternResultSchema,
      annotations: write({ destructive: true, idempotent: true }),
      run: async (caller, args) => {
        const { name } = parseInput(patternRefArgsSchema, args);
        await deletePattern(caller.userId, name);
        return { deleted: true, name };
      },
    },
    {
      name: "list_drop_members",
      title: "List who a drop is shared with",
      description: (rest) =>
        "Lists the people and teams on one of your drops' list, with their roles; pending marks a person who has not signed in yet (same as " + rest + "). " +
        "The list matters when the drop's access is restricted (or signed_in: it adds people outside the org).",
      input: dropRefArgsSchema,
      output: dropMemberListSchema,
      annotations: READ,
      run: async (caller, args) => ({ members: await listDropMembers(caller.userId, parseInput(dropRefArgsSchema, args).slug) }),
    },
    {
      name: "share_drop",
      title: "Share a drop with a person or a team",
      description: (rest) =>
        "Adds a person (login or email) or one of your teams (team_id) to your drop's list as a viewer or an editor (same as " + rest + "). " +
        "Someone without an account yet is admitted at their first sign-in. To keep the drop from the internet, also set access to restricted with patch_drop.",
      input: shareDropArgsSchema,
      output: dropMemberSchema,
      annotations: write({ destructive: false, idempotent: false }),
      run: async (caller, args) => {
        const { slug, ...input } = parseInput(shareDropArgsSchema, args);
        return addDropMember(caller.userId, slug, input);
      },
    },
    {
      name: "set_member_role",
      title: "Change a list entry's role",
      description: (rest) => "Makes a person or team on your drop's list a viewer or an editor (same as " + rest + "); it takes effect on their next request.",
      input: setMemberRoleArgsSchema,
      output: dropMemberSchema,
      annotations: write({ destructive: true, idempotent: true }),
      run: async (caller, args) => {
        const { slug, id, role } = parseInput(setMemberRoleArgsSchema, args);
        return setDropMemberRole(caller.userId, slug, id, role);
      },
    },
    {
      name: "unshare_drop",
      title: "Stop sharing a drop with a person or a team",
      description: (rest) => "Removes an entry from your drop's list by its id from list_drop_members (same as " + rest + "); they lose access on their next request.",
      input: memberRefArgsSchema,
      output: removedResultSchema,
      annotations: write({ destructive: true, idempotent: true }),
      run: async (caller, args) => {
        const { slug, id } = parseInput(memberRefArgsSchema, args);
        await removeDropMember(caller.userId, slug, id);
        return { removed: true, id };
      },
    },
    {
      name: "list_teams",
      title: "List your teams",
      description: (rest) => "Lists the teams you made (owned) or belong to (same as " + rest + "); share a drop with one by its id.",
      input: noArgsSchema,
      output: teamListSchema,
      annotations: READ,
      run: async (caller, args) => {
        parseInput(noArgsSchema, args);
        return { teams: await listTeams(caller.userId) };
      },
    },
    {
      name: "create_team",
      title: "Make a team",
      description: (rest) => "Makes a team with you as its maker and first member (same as " + rest + "). Add people with add_team_member.",
      input: createTeamArgsSchema,
      output: teamSchema,
      annotations: write({ destructive: false, idempotent: false }),
      run: async (caller, args) => createTeam(caller.userId, parseInput(createTeamArgsSchema, args).name),
    },
    {
      name: "get_team",
      title: "Read a team and its members",
      description: (rest) => "Returns one of your teams with its members (same as " + rest + ").",
      input: teamRefArgsSchema,
      output: teamSchema,
      annotations: READ,
      run: async (caller, args) => getTeam(caller.userId, parseInput(teamRefArgsSchema, args).team_id),
    },
    {
      name: "add_team_member",
      title: "Add a person to a team",
      description: (rest) => "Adds a person by login or email to a team you made (same as " + rest + "); someone without an account yet joins at their first sign-in.",
      input: addTeamMemberArgsSchema,
      output: teamSchema,
      annotations: write({ destructive: false, idempotent: false }),
      run: async (caller, args) => {
        const { team_id: teamId, ...input } = parseInput(addTeamMemberArgsSchema, args);
        return addTeamMember(caller.userId, teamId, input);
      },
    },
    {
      name: "remove_team_member",
      title: "Remove a person from a team, or leave it",
      description: (rest) => "Removes a member from a team you made, or yourself from a team you belong to (same as " + rest + ").",
      input: removeTeamMemberArgsSchema,
      output: removedResultSchema,
      annotations: write({ destructive: true, idempotent: true }),
      run: async (caller, args) => {
        const { team_id: teamId, member_id: memberId } = parseInput(removeTeamMemberArgsSchema, args);
        await removeTeamMember(caller.userId, teamId, memberId);
        return { removed: true, id: memberId };
      },
    },
    {
      name: "delete_team",
      title: "Delete a team",
      description: (rest) => "Deletes a team you made (same as " + rest + "); the drops shared with it stop admitting its members.",
      input: teamRefArgsSchema,
      output: deletedTeamResultSchema,
      annotations: write({ destructive: true, idempotent: true }),
      run: async (caller, args) => {
        const { team_id: teamId } = parseInput(teamRefArgsSchema, args);
        await deleteTeam(caller.userId, teamId);
        return { deleted: true, id: teamId };
      },
    },
    {
      name: "list_webhooks",
      title: "List your webhook endpoints",
      description: (rest) => "Lists the account's webhook endpoints, without their secrets (same as " + rest + ").",
      input: noArgsSchema,
      output: webhookListSchema,
      annotations: READ,
      run: async (caller, args) => {
        parseInput(noArgsSchema, args);
        return { webhooks: await listWebhooks(caller.userId) };
      },
    },
    {
      name: "create_webhook",
      title: "Register a webhook endpoint",
      description: (rest) =>
        "Registers an https URL to be told of events (drop.created, version.created, comment.created, ...), optionally only for some drops or tags (same as " + rest + "). " +
        "The answer's secret is shown only once: give it to the receiver to verify signatures.",
      input: createWebhookBodySchema,
      output: createdWebhookSchema,
      annotations: { ...write({ destructive: false, idempotent: false }), openWorldHint: true },
      run: async (caller, args) => createWebhook(caller.userId, parseInput(createWebhookBodySchema, args)),
    },
    {
      name: "get_webhook",
      title: "Read a webhook endpoint",
      description: (rest) => "Returns one of your webhook endpoints, and whether persistent failure disabled it (same as " + rest + ").",
      input: webhookRefArgsSchema,
      output: webhookSchema,
      annotations: READ,
      run: async (caller, args) => getWebhook(caller.userId, parseInput(webhookRefArgsSchema, args).webhook_id),
    },
    {
      name: "update_webhook",
      title: "Change a webhook endpoint",
      description: (rest) => "Changes an endpoint's URL, events, filters or description, or enables it again with enabled: true (same as " + rest + ").",
      input: updateWebhookArgsSchema,
      output: webhookSchema,
      annotations: write({ destructive: false, idempotent: true }),
      run: async (caller, args) => {
        const { webhook_id: id, ...input } = parseInput(updateWebhookArgsSchema, args);
        return updateWebhook(caller.userId, id, input);
      },
    },
    {
      name: "delete_webhook",
      title: "Delete a webhook endpoint",
      description: (rest) => "Deletes a webhook endpoint and its delivery log (same as " + rest + ").",
      input: webhookRefArgsSchema,
      output: deletedWebhookResultSchema,
      annotations: write({ destructive: true, idempotent: true }),
      run: async (caller, args) => {
        const { webhook_id: id } = parseInput(webhookRefArgsSchema, args);
        await deleteWebhook(caller.userId, id);
        return { deleted: true, id };
      },
    },
    {
      name: "list_webhook_deliveries",
      title: "Read a webhook endpoint's delivery log",
      description: (rest) => "Lists an endpoint's latest deliveries with each attempt's time, status code, duration and error (same as " + rest + ").",
      input: webhookRefArgsSchema,
      output: deliveryListSchema,
      annotations: READ,
      run: async (caller, args) => ({ deliveries: await listDeliveries(caller.userId, parseInput(webhookRefArgsSchema, args).webhook_id) }),
    },
    {
      name: "test_webhook",
      title: "Send a test event to a webhook endpoint",
      description: (rest) => "Sends a signed webhook.test event now and returns the attempt (same as " + rest + ").",
      input: webhookRefArgsSchema,
      output: deliverySchema,
      annotations: { ...write({ destructive: false, idempotent: false }), openWorldHint: true },
      run: async (caller, args) => sendTestEvent(caller.userId, parseInput(webhookRefArgsSchema, args).webhook_id),
    },
    {
      name: "retry_webhook_delivery",
      title: "Send a webhook delivery again",
      description: (rest) => "Sends one delivery again now, with the same webhook-id and body (same as " + rest + ").",
      input: retryDeliveryArgsSchema,
      output: deliverySchema,
      annotations: { ...write({ destructive: false, idempotent: false }), openWorldHint: true },
      run: async (caller, args) => {
        const { webhook_id: id, delivery_id: deliveryId } = parseInput(retryDeliveryArgsSchema, args);
        return retryDelivery(caller.userId, id, deliveryId);
      },
    },
  ];
}
