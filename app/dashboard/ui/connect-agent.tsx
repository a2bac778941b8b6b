import styles from "../dashboard.module.css";
import { CopyButton } from "@/app/_components/copy-button";

/** The empty state: how a new owner gets an agent to publish its first drop. */
export function ConnectAgent({ mcpUrl }: { mcpUrl: string }) {
  return (
    <section className={styles.card} aria-labelledby="connect-agent" data-testid="empty-state">
      <h2 id="connect-agent">No drops yet: connect an agent</h2>
      <p>Drops are published by your agents. Give one of them either door:</p>
      <ol className={styles.steps}>
        <li>
          <strong>Any agent that can make HTTP calls:</strong> tell it to read <a href="/api/onboard">/api/onboard</a>. It explains the API and
          walks the agent through signing in with a device code, which you approve in this browser.
        </li>
        <li>
          <strong>An MCP client</strong> (Claude, Cursor, and others): add the Streamable HTTP server
          <span className={styles.field}>
            <code data-testid="mcp-url">{mcpUrl}</code>
            <CopyButton value={mcpUrl} label="MCP endpoint address" className={styles.secondary} />
          </span>
          with a bearer token from the device-code sign-in.
        </li>
      </ol>
      <p className={styles.muted}>Everything your agents publish with this account shows up here, from every machine.</p>
    </section>
  );
}
