import styles from "@/app/_components/discovery.module.css";
import type { ConnectGuide } from "@/lib/discovery/connect";

const MARKDOWN_LINK = /^\[([^\]]+)\]\(((?:https?:\/\/|\/(?!\/))[^)\s]*)\)$/;

/**
 * Renders the documents' inline Markdown: `code`, **labels** and [links](url) to http(s) or this site's
 * paths. React escapes the rest, so HTML in a description stays text.
 */
export function InlineMarkdown({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\))/).map((part, index) => {
        if (part.startsWith("`") && part.endsWith("`") && part.length > 1) return <code key={index}>{part.slice(1, -1)}</code>;
        if (part.startsWith("**") && part.endsWith("**") && part.length > 3) return <strong key={index}>{part.slice(2, -2)}</strong>;
        const link = MARKDOWN_LINK.exec(part);
        return link ? (
          <a key={index} href={link[2]}>
            {link[1]}
          </a>
        ) : (
          part
        );
      })}
    </>
  );
}

/** One client's steps, and the configuration file that adds the server when the client reads one. */
export function GuideSteps({ guide }: { guide: ConnectGuide }) {
  return (
    <>
      <ol>
        {guide.steps.map((step, index) => (
          <li key={index}>
            <InlineMarkdown text={step} />
          </li>
        ))}
      </ol>
      {guide.config && (
        <>
          <p className={styles.muted}>
            <code>{guide.config.file}</code>
          </p>
          <pre className={styles.config}>
            <code>{JSON.stringify(guide.config.json, null, 2)}</code>
          </pre>
        </>
      )}
    </>
  );
}

/** One collapsible block per MCP client, with its steps and configuration file. */
export function ConnectGuides({ guides }: { guides: ConnectGuide[] }) {
  return (
    <div className={styles.guides} data-testid="connect-guides">
      {guides.map((guide) => (
        <details key={guide.id} className={styles.guide} data-client={guide.id}>
          <summary>{guide.client}</summary>
          <GuideSteps guide={guide} />
        </details>
      ))}
    </div>
  );
}
