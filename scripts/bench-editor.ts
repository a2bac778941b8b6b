// `npm run bench:editor` (after `npm run build`): how the dashboard's drop editor behaves on a document at
// the 2 MiB limit, in Debian's Chromium against the built service (tests/helpers/app.ts, as the other
// benchmarks do). Two documents: a report of ~20,000 short lines, and the same bytes on one line (a
// minified page, CodeMirror's hardest case). For each: the page's HTML size; the times from navigation
// to DOMContentLoaded, to the request for CodeMirror's chunk, to CodeMirror showing the document and to
// the first preview; the latency of EDITOR_KEYS key presses typed mid-document (keydown to the frame
// after it, p50/p95/max), without a pause and again while the preview reloads after one; the longest
// main-thread task from the first key until the preview shows the edit, and the time from the last key
// to that; the time to publish the edit, with the size of the answer as sent; and, to compare with the
// preview, the time the same document takes to load as the viewer's raw page. Prints a table; fails
// when a step does.
import { chromium, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../tests/helpers/chromium";
import { startApp, type TestApp } from "../tests/helpers/app";
import { signInBrowserless } from "../tests/helpers/device-flow";

const LOGIN = "bench-editor";
const HTML_MAX_BYTES = 2 * 1024 * 1024;
const KEYS = Number(process.env.EDITOR_KEYS ?? 60);

/** A report of short lines up to just under the limit; `oneLine` joins them without line breaks. */
function bigDocument(oneLine: boolean): string {
  const head = `<!doctype html>\n<html lang="en">\n<head><title>Big report</title><style>td{padding:2px 6px}</style></head>\n<body>\n<h1 id="title">Big report</h1>\n<table>\n`;
  const tail = "</table>\n</body>\n</html>\n";
  const rows: string[] = [];
  let bytes = head.length + tail.length;
  for (let row = 1; ; row++) {
    const line = `<tr><td>${row}</td><td class="value">${(row * 7919) % 100000}</td><td>note for row ${row} of the report</td></tr>\n`;
    if (bytes + line.length > HTML_MAX_BYTES - 1024) break;
    rows.push(line);
    bytes += line.length;
  }
  const text = head + rows.join("") + tail;
  return oneLine ? text.replaceAll("\n", "") : text;
}

type Probe = { latencies: number[]; longTasks: number[]; previewLoads: number[]; editedSent: number };

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

/** p50/p95/max of key latencies. */
function spread(latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `${percentile(sorted, 0.5).toFixed(0)}/${percentile(sorted, 0.95).toFixed(0)}/${sorted.at(-1)!.toFixed(0)} ms`;
}

async function measure(app: TestApp, page: Page, token: string, name: string, oneLine: boolean) {
  const html = bigDocument(oneLine);
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: name, html } });
  if (created.status !== 201) throw new Error(`creating ${name} answered ${created.status}: ${created.text}`);
  const slug = created.body.slug as string;

  const response = await page.goto(`${app.baseUrl}/dashboard/drops/${slug}/edit`);
  if (response?.status() !== 200) throw new Error(`the editor answered ${response?.status()}`);
  const pageBytes = (await response.body()).length;
  await page.locator(".cm-content").getByText("Big report").first().waitFor({ timeout: 60_000 });
  const { editorMs, loadedMs, moduleMs } = await page.evaluate(() => ({
    editorMs: performance.now(),
    loadedMs: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domContentLoadedEventEnd,
    // The chunk that holds CodeMirror: the page's only script fetched after its first ones.
    moduleMs: Math.max(...performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith(".js")).map((entry) => entry.startTime)),
  }));
  await page.frameLocator('iframe[title="Preview of your edit"]').locator("#title").waitFor({ timeout: 60_000 });
  const previewMs = await page.evaluate(() => performance.now());

  // Latency of each key: from keydown to the frame after the edit. Long tasks: anything over 50 ms.
  await page.evaluate(() => {
    const state = window as unknown as Probe;
    state.latencies = [];
    state.longTasks = [];
    state.previewLoads = [];
    const frame = document.querySelector('iframe[title="Preview of your edit"]')!;
    frame.addEventListener("load", () => state.previewLoads.push(performance.now()));
    // When the preview is handed the text with the last edit in it.
    new MutationObserver(() => {
      if (!state.editedSent && frame.getAttribute("srcdoc")?.includes("EDITED")) state.editedSent = performance.now();
    }).observe(frame, { attributes: true, attributeFilter: ["srcdoc"] });
    document.addEventListener(
      "keydown",
      () => {
        const start = performance.now();
        requestAnimationFrame(() => setTimeout(() => state.latencies.push(performance.now() - start), 0));
      },
      true,
    );
    new PerformanceObserver((list) => state.longTasks.push(...list.getEntries().map((entry) => entry.duration))).observe({ type: "longtask" });
  });
  const probe = () => page.evaluate(() => ({ ...(window as unknown as Probe) }));
  const typeKeys = async () => {
    for (let key = 0; key < KEYS; key++) await page.keyboard.type(key % 10 === 9 ? " " : "x", { delay: 30 });
  };
  await page.locator(".cm-content .cm-line").nth(oneLine ? 0 : 8).click();
  // Typing without a pause: the preview waits.
  await typeKeys();
  const typing = [...(await probe()).latencies];
  // A pause starts the preview's reload; typing on while it loads.
  await page.waitForTimeout(900);
  await typeKeys();
  const duringReload = (await probe()).latencies.slice(typing.length);
  await page.keyboard.type("EDITED");
  const lastKey = await page.evaluate(() => performance.now());
  // A newer text cancels the load of an older one, so the first load after the edit was sent is the edit's.
  await page.waitForFunction(() => ((state) => state.editedSent > 0 && state.previewLoads.some((at) => at > state.editedSent))(window as unknown as Probe), undefined, { timeout: 120_000 });
  const measured = await probe();
  const previewShown = measured.previewLoads.find((at) => at > measured.editedSent)!;

  // Publishing: the whole document goes up; the answer is the form's state and the page's refreshed data.
  const publishStarted = Date.now();
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Publish new version" }).click();
  const answerBytes = (await (await answer).request().sizes()).responseBodySize;
  await page.getByRole("status").getByText("Version 2 published").waitFor({ timeout: 60_000 });
  const publishMs = Date.now() - publishStarted;

  // For comparison: the same document loaded as the viewer's frame loads it, on its own.
  await page.goto(created.body.raw_url as string);
  const rawMs = await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventStart);
  return {
    document: name,
    "bytes": html.length,
    "page HTML": `${(pageBytes / 1024 / 1024).toFixed(2)} MB`,
    "page loaded": `${Math.round(loadedMs)} ms`,
    "editor requested": `${Math.round(moduleMs)} ms`,
    "editor shown": `${Math.round(editorMs)} ms`,
    "first preview": `${Math.round(previewMs)} ms`,
    "key p50/p95/max": spread(typing),
    "… while preview reloads": spread(duringReload),
    "longest task": `${Math.round(Math.max(0, ...measured.longTasks))} ms`,
    "last key → preview": `${Math.round(previewShown - lastKey)} ms (load ${Math.round(previewShown - measured.editedSent)} ms)`,
    publish: `${publishMs} ms (answer ${(answerBytes / 1024).toFixed(0)} KB)`,
    "raw page load": `${Math.round(rawMs)} ms`,
  };
}

async function main(): Promise<void> {
  process.env.TEST_DB = "sqlite";
  delete process.env.TEST_SERVE;
  const app = await startApp();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const token = await app.createToken(LOGIN, "bench");
    const session = (await signInBrowserless(app, LOGIN)).jar.get("next-auth.session-token");
    if (!session) throw new Error("the sign-in left no session cookie");
    const rows = [];
    for (const [name, oneLine] of [
      ["20,000 lines", false],
      ["one line", true],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies([{ name: "next-auth.session-token", value: session, url: app.baseUrl, httpOnly: true, sameSite: "Lax" }]);
      rows.push(await measure(app, await context.newPage(), token, name, oneLine));
      await context.close();
    }
    console.table(rows);
  } finally {
    await browser.close();
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error("bench:editor failed:", error);
  process.exit(1);
});
