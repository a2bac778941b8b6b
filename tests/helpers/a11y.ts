// Accessibility and screenshot checks shared by the browser tests: axe-core in the page as it is
// shown, in light and dark, and screenshots kept under test-results/ as artifacts of the run.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, type Frame, type Page } from "@playwright/test";
import axe, { type AxeResults, type ElementContext, type RunOptions } from "axe-core";

export const SCREENS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

export const COLOR_SCHEMES = ["light", "dark"] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

/** axe-core's rules for WCAG 2.2 A and AA (2.2's own: target size, 2.5.8) and its best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** axe's rules whose outcome depends on colours: text contrast, and links told from text by colour alone. */
const COLOR_RULES = ["color-contrast", "link-in-text-block"];

type ViolationSummary = { rule: string; impact: AxeResults["violations"][number]["impact"]; help: string; nodes: string[] };

function summarize(violations: AxeResults["violations"]): ViolationSummary[] {
  return violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.slice(0, 5).map((node) => `${node.target.join(" ")}: ${node.failureSummary ?? ""}`),
  }));
}

/**
 * axe-core run inside `frame`'s own document, injected once per document. @axe-core/playwright's builder
 * sent axe's 560 KB source to every frame twice on each run, most of a page's check (1.4 s of CPU for
 * the smallest page in light and dark).
 */
async function runAxe(frame: Frame, context: ElementContext, rules?: string[]): Promise<ViolationSummary[]> {
  if (!(await frame.evaluate(() => "axe" in window))) await frame.evaluate(axe.source);
  // Only violations are read, so axe need not gather every passing node's details (much faster on long pages).
  const options: RunOptions = { runOnly: rules ? { type: "rule", values: rules } : { type: "tag", values: AXE_TAGS }, resultTypes: ["violations"], iframes: false };
  // The context passes as unknown: Playwright's serializable-argument type of axe's ElementContext exhausts tsc's memory.
  const violations = await frame.evaluate(
    ({ context, options }) => (window as unknown as { axe: typeof axe }).axe.run(context as ElementContext, options).then((results) => results.violations),
    { context: context as unknown, options },
  );
  return summarize(violations);
}

/**
 * axe-core's WCAG 2.2 A and AA rules (and its best practices) on the page as shown, or only on what
 * `include` selects. A drop's own HTML inside the viewer's iframe is the author's, not htmldrop's, so
 * frames are left out (see axeViolationsInFrame).
 */
export async function expectNoAxeViolations(page: Page, options: { include?: string; exclude?: string[]; onlyColorRules?: boolean } = {}): Promise<void> {
  // Next streams a dynamic page's metadata after its body, so the title can arrive a moment after load;
  // axe judges the page once it has one (a page that never gets one still fails document-title).
  await page.waitForFunction(() => document.title !== "", undefined, { timeout: 5_000 }).catch(() => undefined);
  const exclude = ["iframe", ...(options.exclude ?? [])];
  const context: ElementContext = options.include ? { include: [options.include], exclude } : { exclude };
  const violations = await runAxe(page.mainFrame(), context, options.onlyColorRules ? COLOR_RULES : undefined);
  expect(violations, `axe violations on ${page.url()}`).toEqual([]);
}

/**
 * The same rules (or only `rules`) on one frame's own document, run inside that frame: a drop in the
 * viewer's sandboxed iframe, judged as its reader gets it, without the viewer page around it (which
 * the accessibility specs check).
 */
export function axeViolationsInFrame(frame: Frame, rules?: string[]): Promise<ViolationSummary[]> {
  return runAxe(frame, { exclude: [] }, rules);
}

/**
 * Runs axe in light and in dark mode, restoring light afterwards. The pages' dark scheme changes colours
 * only (CSS variables), so in dark the rules about colour run; every rule has run in light.
 */
export async function expectNoAxeViolationsInBothSchemes(page: Page, options: { include?: string; exclude?: string[] } = {}): Promise<void> {
  for (const colorScheme of COLOR_SCHEMES) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page, { ...options, onlyColorRules: colorScheme === "dark" });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Where a spec keeps its screenshots: test-results/<group>/, created on first use. */
export function screenshotPath(group: string, name: string): string {
  const dir = join(process.cwd(), "test-results", group);
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

/** True when the page itself scrolls sideways (content wider than the viewport). */
export async function hasHorizontalPageScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}
