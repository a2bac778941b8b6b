import type { DiscoveryFacts } from "./facts";

// "Connect an assistant by URL": the exact steps for each MCP client that signs in with OAuth when it is
// given only the /mcp URL. The guide, SKILL.md, llms.txt, /docs and the landing page all render this list.
// Steps are short Markdown: `code` and **labels** only, so every page can render them without a parser.

export type ConnectGuide = {
  id: string;
  client: string;
  /** One line, for llms.txt and other summaries. */
  summary: string;
  steps: string[];
  /** A configuration file that adds the server, when the client reads one. */
  config?: { file: string; json: unknown };
};

/**
 * Claude's and ChatGPT's connectors reach the server from their vendors' clouds; editors and the
 * Inspector connect from the machine they run on.
 */
export function publicUrlNote(f: DiscoveryFacts): string {
  return `Claude and ChatGPT connect from their own servers, not from your computer: they reach htmldrop only when \`PUBLIC_URL\` (here \`${f.publicUrl}\`) is a public https address. Editors and the MCP Inspector connect from your machine, so a local address works for them.`;
}

export function connectGuides(f: DiscoveryFacts): ConnectGuide[] {
  const url = f.mcpUrl;
  const approve = "sign in to htmldrop if asked, check the app's name, where it sends you back and the scopes, and press **Approve**";
  return [
    {
      id: "claude",
      client: "Claude (claude.ai and Claude Desktop)",
      summary: `Settings → Connectors → Add custom connector, paste ${url}, then Connect and approve.`,
      steps: [
        "Open **Settings → Connectors** and choose **Add custom connector** (on Team and Enterprise plans an owner adds it for the organization first).",
        `Name it \`${f.name}\` and paste \`${url}\` as the remote MCP server URL. Leave the OAuth client ID and secret under **Advanced settings** empty: Claude registers itself.`,
        `Click **Add**, then **Connect**: Claude opens htmldrop's consent page; ${approve}.`,
        "Claude Desktop: the same steps in the app's **Settings → Connectors**; the connector is shared with claude.ai through your account.",
      ],
    },
    {
      id: "chatgpt",
      client: "ChatGPT",
      summary: `Settings → Apps & Connectors → Advanced → Developer mode on; Create a connector with ${url} and OAuth, then approve.`,
      steps: [
        "Open **Settings → Apps & Connectors → Advanced settings** and turn on **Developer mode**.",
        `Back in **Apps & Connectors**, choose **Create**: name \`${f.name}\`, a short description, MCP server URL \`${url}\`, authentication **OAuth**.`,
        `Confirm that you trust the connector and click **Create**: ChatGPT opens htmldrop's consent page; ${approve}.`,
        "In a chat, turn the connector on from the composer's **+** menu (Developer mode).",
      ],
    },
    {
      id: "vscode",
      client: "VS Code",
      summary: `.vscode/mcp.json {"servers":{"${f.name}":{"type":"http","url":"${url}"}}} or "MCP: Add Server" → HTTP → the URL; VS Code runs the sign-in.`,
      steps: [
        `Add the server to \`.vscode/mcp.json\` (below), or run **MCP: Add Server** from the Command Palette, pick **HTTP**, paste \`${url}\` and name it \`${f.name}\`.`,
        `Start it (**Start** above the entry in \`mcp.json\`, or from the MCP servers list). VS Code asks to sign in to htmldrop: **Allow**, then in the browser ${approve}.`,
      ],
      config: { file: ".vscode/mcp.json", json: { servers: { [f.name]: { type: "http", url } } } },
    },
    {
      id: "cursor",
      client: "Cursor",
      summary: `~/.cursor/mcp.json {"mcpServers":{"${f.name}":{"url":"${url}"}}}, then Connect in Cursor Settings → Tools & MCP; Cursor registers itself.`,
      steps: [
        "Add the server to `~/.cursor/mcp.json` (every project) or `.cursor/mcp.json` (one project), below.",
        `In **Cursor Settings → Tools & MCP** (**MCP** in older versions), htmldrop shows that it needs a login: click **Connect**. Cursor registers itself (dynamic client registration) and opens the browser: ${approve}.`,
      ],
      config: { file: "~/.cursor/mcp.json", json: { mcpServers: { [f.name]: { url } } } },
    },
    {
      id: "claude-code",
      client: "Claude Code",
      summary: `claude mcp add --transport http ${f.name} ${url}, then /mcp → ${f.name} → Authenticate.`,
      steps: [`Run \`claude mcp add --transport http ${f.name} ${url}\`.`, `In a session, run \`/mcp\`, pick \`${f.name}\` and **Authenticate**; in the browser ${approve}.`],
    },
    {
      id: "inspector",
      client: "MCP Inspector",
      summary: `npx @modelcontextprotocol/inspector; Transport Type Streamable HTTP, URL ${url}, Connection Type Via Proxy; Connect (or Open Auth Settings → Quick OAuth Flow).`,
      steps: [
        "Run `npx @modelcontextprotocol/inspector` and open the address it prints.",
        `Set **Transport Type** to **Streamable HTTP**, **URL** to \`${url}\`, and keep **Connection Type** on **Via Proxy** (the Inspector's proxy then makes the OAuth requests for the page).`,
        `Click **Connect**, or **Open Auth Settings → Quick OAuth Flow** to watch each step; on the consent page ${approve}. Back in the Inspector, **List Tools** shows htmldrop's tools.`,
      ],
    },
  ];
}
