// A drop's content is never cut off (issue 17): a 40-column table and a long `pre` line scroll sideways
// in their own box, a page laid out at a fixed 1200 px without a viewport tag is shown whole, and an
// ordinary responsive page still has no sideways page scroll. In the viewer's iframe and on the raw
// page, on a phone (a mobile viewport, which honours viewport tags) and on a desktop.
import { expect, test, type Browser, type BrowserContext, type Frame } from "@playwright/test";
import { hasHorizontalPageScroll, SCREENS, screenshotPath } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let token: string;
const drops: Record<string, { url: string; raw_url: string }> = {};

const cells = (row: number) => Array.from({ length: 40 }, (_, column) => `<td>r${row}c${column + 1}</td>`).join("");
const FIXTURES = {
  table: `<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>table</title></head><body>
<h1>Forty columns</h1><table id="wide" border="1"><tr>${Array.from({ length: 40 }, (_, c) => `<th>Heading ${c + 1}</th>`).join("")}</tr><tr>${cells(1)}</tr><tr>${cells(2)}</tr></table>
<table id="small" style="width:100%"><tr><td>one</td><td>two</td></tr></table></body></html>`,
  pre: `<!DOCTYPE html><html><head><title>pre</title></head><body><h1>Log</h1><pre id="log">start ${"lorem-ipsum-".repeat(40)}<span id="end">END</span></pre></body></html>`,
  legacy: `<!DOCTYPE html><html><head><title>legacy</title><style>body{width:1200px;margin:0}.col{float:left;width:400px;height:200px}</style></head>
<body><div class="col" id="c1">Column one</div><div class="col" id="c2">Column two</div><div class="col" id="c3">Column three</div></body></html>`,
  responsive: `<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>responsive</title>
<style>main{max-width:40rem;margin:auto;padding:1rem}img{width:100%}</style></head><body><main><h1>Responsive</h1><p>${"Words that wrap. ".repeat(60)}</p>
<table id="small" style="width:100%"><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table></main></body></html>`,
};

test.beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("never-clipped");
  for (const [name, html] of Object.entries(FIXTURES)) {
    const res = await app.api("/api/drops", { method: "POST", token, body: { title: `Never clipped: ${name}`, html } });
    expect(res.status).toBe(201);
    drops[name] = res.body;
  }
});
test.afterAll(async () => app?.stop());

type Screen = (typeof SCREENS)[number];

function newContext(browser: Browser, screen: Screen): Promise<BrowserContext> {
  const viewport = { width: screen.width, height: screen.height };
  return screen.name === "phone" ? browser.newContext({ viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }) : browser.newContext({ viewport });
}

/** The drop's document: the viewer's iframe, or the raw page itself. */
async function openDrop(context: BrowserContext, name: string, where: "viewer" | "raw", screen: Screen): Promise<Frame> {
  const page = await context.newPage();
  await page.goto(where === "viewer" ? drops[name]!.url : `${drops[name]!.raw_url}?v=1`);
  const frame = where === "viewer" ? await (await page.locator("iframe").elementHandle())!.contentFrame() : page.mainFrame();
  await frame!.waitForLoadState("load");
  // The wide-table marker is set after the first layout.
  await frame!.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.screenshot({ path: screenshotPath("never-clipped", `${name}-${where}-${screen.name}`) });
  return frame!;
}

/** Whether an element is inside the document's visible width (the layout viewport). */
function withinViewport(frame: Frame, selector: string): Promise<boolean> {
  return frame.evaluate((selector) => {
    const box = document.querySelector(selector)!.getBoundingClientRect();
    return box.width > 0 && box.left >= -1 && box.right <= document.documentElement.clientWidth + 1;
  }, selector);
}

for (const screen of SCREENS) {
  for (const where of ["viewer", "raw"] as const) {
    test.describe(`${screen.name}, ${where}`, () => {
      test("a 40-column table scrolls in its own box to its last cell", async ({ browser }) => {
        const context = await newContext(browser, screen);
        const frame = await openDrop(context, "table", where, screen);
        await expect(frame.locator("#wide")).toHaveAttribute("data-htmldrop-wide", "");
        await expect(frame.locator("#small")).not.toHaveAttribute("data-htmldrop-wide");
        expect(await frame.evaluate(() => getComputedStyle(document.getElementById("small")!).display)).toBe("table");
        expect(await withinViewport(frame, "#wide tr:last-child td:first-child")).toBe(true);
        expect(await withinViewport(frame, "#wide tr:last-child td:last-child")).toBe(false);
        // The clipped edge fades (issue 31, item 14): a mask, which moves nothing; it follows the scroll.
        const wide = frame.locator("#wide");
        await expect(wide).toHaveAttribute("data-htmldrop-clip", "right");
        expect(await wide.evaluate((table) => getComputedStyle(table).maskImage)).toContain("linear-gradient");
        const boxes = await wide.evaluate((table) => {
          const before = JSON.stringify(table.getBoundingClientRect());
          table.removeAttribute("data-htmldrop-clip");
          const after = JSON.stringify(table.getBoundingClientRect());
          table.setAttribute("data-htmldrop-clip", "right");
          return [before, after];
        });
        expect(boxes[0]).toBe(boxes[1]);
        await wide.evaluate((table) => (table.scrollLeft = table.scrollWidth / 3));
        await expect(wide).toHaveAttribute("data-htmldrop-clip", "both");
        await wide.evaluate((table) => (table.scrollLeft = table.scrollWidth));
        await expect(wide).toHaveAttribute("data-htmldrop-clip", "left");
        await expect(frame.locator("#small")).not.toHaveAttribute("data-htmldrop-clip");
        expect(await withinViewport(frame, "#wide tr:last-child td:last-child")).toBe(true);
        expect(await withinViewport(frame, "#wide tr:first-child th:last-child")).toBe(true);
        await expect(frame.getByText("r2c40")).toBeVisible();
        expect(await hasHorizontalPageScroll(frame.page())).toBe(false);
        await context.close();
      });

      test("a long pre line scrolls in its own box to its end", async ({ browser }) => {
        const context = await newContext(browser, screen);
        const frame = await openDrop(context, "pre", where, screen);
        expect(await withinViewport(frame, "#end")).toBe(false);
        await frame.locator("#log").evaluate((pre) => (pre.scrollLeft = pre.scrollWidth));
        expect(await withinViewport(frame, "#end")).toBe(true);
        await context.close();
      });

      test("a page made for 1200 px is shown whole", async ({ browser }) => {
        const context = await newContext(browser, screen);
        const frame = await openDrop(context, "legacy", where, screen);
        for (const column of ["#c1", "#c2", "#c3"]) expect(await withinViewport(frame, column), column).toBe(true);
        await expect(frame.getByText("Column three")).toBeVisible();
        await context.close();
      });

      test("a responsive page has no sideways page scroll and its table stays a table", async ({ browser }) => {
        const context = await newContext(browser, screen);
        const frame = await openDrop(context, "responsive", where, screen);
        expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
        expect(await hasHorizontalPageScroll(frame.page())).toBe(false);
        await expect(frame.locator("#small")).not.toHaveAttribute("data-htmldrop-wide");
        expect(await frame.evaluate(() => document.getElementById("small")!.getBoundingClientRect().right <= document.documentElement.clientWidth + 1)).toBe(true);
        await context.close();
      });
    });
  }
}
