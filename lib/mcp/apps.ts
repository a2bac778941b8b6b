// Which hosts show a drop inline, said once for the guide, SKILL.md, /docs (the /mcp operation) and OpenAPI.

/** Hosts that render MCP Apps (SEP-1865), and so the drop view (lib/mcp/drop-view.ts). */
export const MCP_APPS_HOSTS = ["Claude (web and desktop)", "ChatGPT", "VS Code", "Goose", "Postman", "MCPJam"] as const;

export const INLINE_VIEW_SUMMARY =
  `Drops inline (MCP Apps): ${MCP_APPS_HOSTS.join(", ")} show the result of each tool that returns a drop or a version as the drop itself, ` +
  "beside the answer: its title, version N of M with a switcher, the agent's context behind a toggle, the document in a sandboxed frame, " +
  "and Open, Copy link and Compare. Nothing to turn on in htmldrop: connect it to such a host (by URL or with a token) where the host's " +
  "MCP Apps (interactive UI) support is on. Locked and non-public drops show too, through a pass valid an hour; other clients get the same JSON as ever.";
