import { buildViewChart } from "@/lib/dashboard/view-chart";
import type { DropStatsJson } from "@/lib/schemas/drops";
import styles from "../dashboard.module.css";
import { ViewsChart } from "./views-chart";

/** The last days' views: a chart with the same numbers as a table, and the views of each version. */
export function ViewsSection({ stats }: { stats: DropStatsJson }) {
  return (
    <section className={styles.card} aria-labelledby="views-heading">
      <h2 id="views-heading">Views</h2>
      <p className={styles.muted} data-testid="views-summary">
        {stats.total_views} in the last {stats.days} days ({stats.from} to {stats.to}, UTC) · {stats.view_count} in all. Your own views while signed in
        are not counted.
      </p>
      <ViewsChart chart={buildViewChart(stats.daily)} />
      <details className={styles.disclosure}>
        <summary>Show views per day as a table</summary>
        <table className={styles.dataTable} data-testid="views-table">
          <caption className={styles.visuallyHidden}>Views per day, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Views</th>
            </tr>
          </thead>
          <tbody>
            {stats.daily.toReversed().map((day) => (
              <tr key={day.date} data-date={day.date}>
                <th scope="row">{day.date}</th>
                <td>{day.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <h3 id="version-views-heading" className={styles.subheading}>
        Views per version
      </h3>
      {stats.versions.length === 0 ? (
        <p className={styles.muted} data-testid="version-views-empty">
          No views in the last {stats.days} days.
        </p>
      ) : (
        <table className={styles.dataTable} aria-labelledby="version-views-heading" data-testid="version-views-table">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Views</th>
            </tr>
          </thead>
          <tbody>
            {stats.versions.map((version) => (
              <tr key={version.version} data-version={version.version}>
                <th scope="row">v{version.version}</th>
                <td>{version.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
