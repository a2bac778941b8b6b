import { viewerPath } from "@/lib/drops/public-urls";
import styles from "./viewer-example.module.css";

const BARS = [
  { label: "Mon", value: 42 },
  { label: "Tue", value: 68 },
  { label: "Wed", value: 55 },
  { label: "Thu", value: 90 },
  { label: "Fri", value: 74 },
];

/**
 * What a viewer sees at a drop's link, drawn in HTML and CSS (no image, no request): the viewer's
 * header with the title, the version and "Open full page", and the drop's own HTML below it.
 */
export function ViewerExample() {
  return (
    <figure className={styles.figure}>
      <div className={styles.window} role="img" aria-label="Example: a drop named Weekly signups, version 3 of 3, showing a bar chart under the viewer's header">
        <div className={styles.address} aria-hidden="true">
          {viewerPath("weekly-signups")}
        </div>
        <div className={styles.viewerHeader} aria-hidden="true">
          <strong>Weekly signups</strong>
          <span className={styles.pill}>v3 of 3</span>
          <span className={styles.open}>Open full page</span>
        </div>
        <div className={styles.drop} aria-hidden="true">
          <p className={styles.dropTitle}>Signups this week: 329</p>
          <div className={styles.chart}>
            {BARS.map((bar) => (
              <div key={bar.label} className={styles.column}>
                <span className={styles.bar} style={{ height: `${bar.value}%` }} />
                <span className={styles.day}>{bar.label}</span>
              </div>
            ))}
          </div>
          <p className={styles.note}>Thursday&apos;s launch post doubled the daily rate.</p>
        </div>
      </div>
      <figcaption className={styles.caption}>
        A drop as its readers see it: your HTML, whole, under a slim header with the version and a link to the full page. The link stays the same for every new version.
      </figcaption>
    </figure>
  );
}
