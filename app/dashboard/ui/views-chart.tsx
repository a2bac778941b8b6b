import type { ViewChart } from "@/lib/dashboard/view-chart";
import styles from "../dashboard.module.css";

/**
 * Views per day as bars, drawn on the server from lib/dashboard/view-chart.ts. One image with a summary
 * for its name (the table next to it holds every number); each day also has a tooltip.
 */
export function ViewsChart({ chart }: { chart: ViewChart }) {
  return (
    <svg role="img" aria-labelledby="views-chart-title" width="100%" height={chart.height} className={styles.chart} data-testid="views-chart">
      <title id="views-chart-title">{chart.summary}</title>
      {chart.gridlines.map((line) => (
        <line key={line.value} x1="0" x2="100%" y1={line.y} y2={line.y} className={styles.chartGrid} />
      ))}
      {chart.bars.map((bar) => (
        <g key={bar.date} data-testid="chart-day" data-date={bar.date} data-views={bar.views}>
          <title>{bar.label}</title>
          {/* The whole column answers the pointer, so a day without views has its tooltip too. */}
          <rect x={`${bar.x}%`} width={`${bar.width}%`} y={chart.plotTop} height={chart.plotBottom - chart.plotTop} className={styles.chartColumn} />
          {bar.height > 0 ? <rect x={`${bar.x}%`} width={`${bar.width}%`} y={bar.y} height={bar.height} className={styles.chartBar} data-testid="chart-bar" /> : null}
        </g>
      ))}
      {chart.gridlines
        .filter((line) => line.value > 0)
        .map((line) => (
          <text key={line.value} x="0" y={line.y - 4} className={styles.chartLabel}>
            {line.value}
          </text>
        ))}
      {chart.axisLabels.map((label) => (
        <text key={label.date} x={`${label.x}%`} y={chart.height - 5} textAnchor={label.anchor} className={styles.chartLabel}>
          {label.date}
        </text>
      ))}
    </svg>
  );
}
