import { ConnectGuides, InlineMarkdown } from "@/app/_components/connect-guides";
import { CopyButton } from "@/app/_components/copy-button";
import styles from "@/app/_components/discovery.module.css";
import { SiteHeader } from "@/app/_components/site-header";
import { ViewerExample } from "@/app/_components/viewer-example";
import { connectGuides, publicUrlNote } from "@/lib/discovery/connect";
import { discoveryFacts } from "@/lib/discovery/facts";
import { DISCOVERY_DOCUMENTS } from "@/lib/discovery/links";
import { agentPrompt, mcpConfigSnippet } from "@/lib/discovery/onboard";

// URLs come from the running configuration, so the page is rendered per request, never at build time.
export const dynamic = "force-dynamic";

function Snippet({ text, label }: { text: string; label: string }) {
  return (
    <div className={styles.snippet}>
      <pre>
        <code>{text}</code>
      </pre>
      <CopyButton value={text} label={label} />
    </div>
  );
}

export default function HomePage() {
  const facts = discoveryFacts();
  const prompt = agentPrompt(facts);
  const mcpConfig = JSON.stringify(mcpConfigSnippet(facts), null, 2);
  const curl = `curl -s -X POST ${facts.apiBase}/drops \\\n  -H "Authorization: Bearer $${facts.tokenEnvVar}" -H 'Content-Type: application/json' \\\n  -d '{"title":"Hello","html":"<!doctype html><h1>Hello</h1>"}'`;
  return (
    <>
      <SiteHeader />
      <main>
        <h1>htmldrop</h1>
        <p className={styles.lead}>
          Publish self-contained HTML at a stable link. Agents and people write reports, dashboards, diffs and plans as single HTML files; htmldrop gives
          each one a URL that survives every revision, with numbered versions, an optional passcode, owner-only tags and a sign-in made for agents.
        </p>
        <p className={styles.cta}>
          <a href="/dashboard/new" className={styles.ctaPrimary}>
            Publish a page
          </a>
          <a href="#connect-agent" className={styles.ctaSecondary}>
            Connect an agent
          </a>
        </p>
        <ul className={styles.ways} aria-label="Three ways to publish">
          <li>
            <strong>In the browser.</strong> Sign in, paste or upload a file, and you have a link. Revise it later in the built-in editor; the link stays the same.
          </li>
          <li>
            <strong>From your agent, by URL.</strong> Claude, ChatGPT, VS Code and Cursor add htmldrop from one address and publish as you ask.
          </li>
          <li>
            <strong>From code.</strong> A REST API, the <code>htmldrop</code> command line and an OpenAPI document, with tokens you make on the dashboard.
          </li>
        </ul>
        <ViewerExample />

        <section className={styles.card} aria-labelledby="connect-agent">
          <h2 id="connect-agent">Connect an agent</h2>
          <p>Paste this into your agent. It reads the onboarding guide, asks you to approve a sign-in in your browser, and starts publishing.</p>
          <Snippet text={prompt} label="agent prompt" />
          <h3>Or add htmldrop by URL</h3>
          <p>
            Claude, ChatGPT, VS Code, Cursor and the MCP Inspector take just this address and sign you in with OAuth: you approve the app once in your browser, and
            no token is copied anywhere.
          </p>
          <Snippet text={facts.mcpUrl} label="MCP address" />
          <p className={styles.muted}>
            <InlineMarkdown text={publicUrlNote(facts)} />
          </p>
          <ConnectGuides guides={connectGuides(facts)} />
          <h3>Or add the MCP server with a token</h3>
          <p>
            For clients configured with headers. The token is yours to make: sign in, open <a href="/dashboard/tokens">your tokens</a> and choose{" "}
            <strong>Create a token</strong>; it is shown once, so copy it then. Keep it in the environment variable <code>{facts.tokenEnvVar}</code> (the snippet reads it from
            there, so the file never holds the secret). An agent can also get its own token with the guide&apos;s device-code sign-in, which you approve in the browser.
          </p>
          <Snippet text={mcpConfig} label="MCP configuration" />
          <h3>Or call the API</h3>
          <Snippet text={curl} label="curl command" />
        </section>

      </main>
      {/* The machine-readable documents, for agents and developers: a compact list, out of the way of people. */}
      <footer className={styles.footer} aria-labelledby="documents-heading">
        <h2 id="documents-heading">For agents and developers</h2>
        <ul className={styles.footerLinks}>
          {DISCOVERY_DOCUMENTS.map((doc) => (
            <li key={doc.path}>
              <a href={doc.path} title={doc.title}>
                {doc.path}
              </a>
            </li>
          ))}
        </ul>
        <p className={styles.muted}>
          The onboarding guide reads as a web page in a browser: <a href="/api/onboard">/api/onboard</a>. Your drops are on the <a href="/dashboard">dashboard</a>.
        </p>
      </footer>
    </>
  );
}
