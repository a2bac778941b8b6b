// The drop page's views-per-day chart as numbers; app/dashboard/ui/views-chart.tsx only draws them.
// Across, positions are percentages of the chart's width; down, they are pixels. So the SVG stretches
// to any width, a 390 px phone included, while its text keeps a fixed, readable size (a scaled viewBox
// would shrink the labels on a phone and blow them up on a desktop).

export type DailyViews = { date: string; views: number };

/** One day's column: `x` and `width` in percent, `y` and `height` in pixels. */
export type ChartBar = DailyViews & { x: number; width: number; y: number; height: number; label: string };
export type ChartGridline = { value: number; y: number };
export type ChartAxisLabel = { date: string; x: number; anchor: "start" | "middle" | "end" };

export type ViewChart = {
  height: number;
  plotTop: number;
  plotBottom: number;
  bars: ChartBar[];
  gridlines: ChartGridline[];
  axisLabels: ChartAxisLabel[];
  summary: string;
};

// Room above the plot for the top gridline's label, and below it for the dates.
const PLOT_TOP = 18;
const PLOT_HEIGHT = 140;
const AXIS_HEIGHT = 22;
const BAR_SHARE = 0.7;
// One view on a busy scale would round to nothing; a day with views always shows.
const MIN_BAR_PX = 2;

// Three decimals of a percent are far below a pixel and keep the markup short.
function percent(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function plural(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? "" : "s"}`;
}

/** The top of the scale: the smallest 1, 2 or 5 times a power of ten that holds `max`. */
export function scaleMax(max: number): number {
  let power = 1;
  while (power * 10 <= max) power *= 10;
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= max) ?? 10 * power;
}

/** The chart's accessible name: what a sighted reader takes in at a glance. */
export function summarizeViews(daily: DailyViews[]): string {
  const lead = `Views per day, last ${plural(daily.length, "day")}`;
  const total = daily.reduce((sum, day) => sum + day.views, 0);
  if (total === 0) return `${lead}: none yet`;
  const busiest = daily.reduce((best, day) => (day.views > best.views ? day : best));
  return `${lead}: ${total} in total, most on ${busiest.date} (${busiest.views})`;
}

/** The first, middle and last dates (each once): three fit under the chart even on a phone. */
function axisLabels(daily: DailyViews[], slot: number): ChartAxisLabel[] {
  const last = daily.length - 1;
  const middle = Math.floor(last / 2);
  const [first, centre, end] = [daily[0], daily[middle], daily[last]];
  const labels: ChartAxisLabel[] = [];
  if (first) labels.push({ date: first.date, x: 0, anchor: "start" });
  if (centre && middle > 0 && middle < last) labels.push({ date: centre.date, x: percent((middle + 0.5) * slot), anchor: "middle" });
  if (end && last > 0) labels.push({ date: end.date, x: 100, anchor: "end" });
  return labels;
}

/** `daily` oldest first, as getDropStats returns it. */
export function buildViewChart(daily: DailyViews[]): ViewChart {
  const top = scaleMax(Math.max(0, ...daily.map((day) => day.views)));
  const plotBottom = PLOT_TOP + PLOT_HEIGHT;
  const slot = 100 / Math.max(1, daily.length);
  const bars = daily.map((day, index) => {
    const height = day.views === 0 ? 0 : Math.max(MIN_BAR_PX, (day.views / top) * PLOT_HEIGHT);
    return { ...day, x: percent(index * slot + (slot * (1 - BAR_SHARE)) / 2), width: percent(slot * BAR_SHARE), y: plotBottom - height, height, label: `${day.date}: ${plural(day.views, "view")}` };
  });
  const values = top % 2 === 0 ? [0, top / 2, top] : [0, top];
  const gridlines = values.map((value) => ({ value, y: plotBottom - (value / top) * PLOT_HEIGHT }));
  return { height: plotBottom + AXIS_HEIGHT, plotTop: PLOT_TOP, plotBottom, bars, gridlines, axisLabels: axisLabels(daily, slot), summary: summarizeViews(daily) };
}
