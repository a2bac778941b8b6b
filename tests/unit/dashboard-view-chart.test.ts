import { describe, expect, it } from "vitest";
import { buildViewChart, scaleMax, summarizeViews } from "@/lib/dashboard/view-chart";

function days(views: number[]): { date: string; views: number }[] {
  return views.map((count, index) => ({ date: `2026-11-${String(index + 1).padStart(2, "0")}`, views: count }));
}

describe("the views chart", () => {
  it("tops its scale at 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 2, 3, 5, 6, 10, 11, 47, 200, 201].map(scaleMax)).toEqual([1, 1, 2, 5, 5, 10, 10, 20, 50, 200, 500]);
  });

  it("summarises the days for its accessible name", () => {
    expect(summarizeViews(days([0, 2, 5, 5, 0]))).toBe("Views per day, last 5 days: 12 in total, most on 2026-11-03 (5)");
    expect(summarizeViews(days([0, 0]))).toBe("Views per day, last 2 days: none yet");
    expect(summarizeViews(days([1]))).toBe("Views per day, last 1 day: 1 in total, most on 2026-11-01 (1)");
  });

  it("gives every day a column across the full width, scaled to the busiest day", () => {
    const chart = buildViewChart(days([...Array(29).fill(0), 10]));
    expect(chart.bars).toHaveLength(30);
    const first = chart.bars[0]!;
    const last = chart.bars[29]!;
    expect(first.x).toBeCloseTo(0.5, 3);
    expect(last.x + last.width).toBeCloseTo(100 - 0.5, 3);
    expect(first.height).toBe(0);
    expect(last.height).toBe(chart.plotBottom - chart.plotTop);
    expect(last.label).toBe("2026-11-30: 10 views");
    expect(chart.gridlines.map((line) => line.value)).toEqual([0, 5, 10]);
    expect(chart.axisLabels).toEqual([
      { date: "2026-11-01", x: 0, anchor: "start" },
      { date: "2026-11-15", x: 48.333, anchor: "middle" },
      { date: "2026-11-30", x: 100, anchor: "end" },
    ]);
  });

  it("keeps a single view visible on a busy scale", () => {
    const chart = buildViewChart(days([1, 1000]));
    expect(chart.bars[0]!.height).toBeGreaterThanOrEqual(2);
    expect(chart.axisLabels.map((label) => label.date)).toEqual(["2026-11-01", "2026-11-02"]);
  });
});
