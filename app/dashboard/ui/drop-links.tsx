import type { DropJson } from "@/lib/schemas/drops";
import styles from "../dashboard.module.css";
import { CopyButton } from "@/app/_components/copy-button";

/** The drop's two public addresses, each with a copy button. */
export function DropLinks({ drop }: { drop: DropJson }) {
  const links = [
    { id: "viewer-link", label: "Viewer link", value: drop.url },
    { id: "raw-link", label: "Raw link", value: drop.raw_url },
  ];
  return (
    <section className={styles.card} aria-labelledby="links-heading">
      <h2 id="links-heading">Links</h2>
      <p className={styles.muted}>
        {drop.expired ? "Expired: the links answer “410 Gone”." : drop.locked ? "Locked: visitors must enter the passcode." : "Anyone with a link can open the drop."} Latest version: v{drop.latest_version} · {drop.view_count} views.
      </p>
      {links.map((link) => (
        <div key={link.id} className={styles.linkRow}>
          <label htmlFor={link.id}>{link.label}</label>
          <div className={styles.field}>
            <input id={link.id} readOnly value={link.value} className={styles.mono} />
            <CopyButton value={link.value} label={link.label.toLowerCase()} className={styles.secondary} />
            <a href={link.value} target="_blank" rel="noopener">
              Open
            </a>
          </div>
        </div>
      ))}
    </section>
  );
}
