// The drop view (MCP Apps) in a real host: the extension's own AppBridge runs in Chromium on a host page
// of its own origin, renders the view htmldrop serves from its own origin with the CSP the view declares,
// and passes the view's calls to /mcp through the SDK client (which holds the token, in this process:
// the browser never sees it). The drop's text shows in the nested frame, the version switcher loads the
// other version, and a hostile drop reaches neither the view, the host page nor the token.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Page } from "@playwright/test";
import { build } from "esbuild";
import { startApp, type TestApp } from "../helpers/app";
import { SCREENS, screenshotPath } from "../helpers/a11y";

let app: TestApp;
let token: string;
let mcp: Client;
let host: Server;
let hostPort: number;
let view: { text: string; csp: { connectDomains: string[]; resourceDomains: string[]; frameDomains: string[] } };

// The host: AppBridge and PostMessageTransport from @modelcontextprotocol/ext-apps, bundled for the page.
const HOST_SCRIPT = `
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
window.openedLinks = [];
window.toolCalls = [];
window.showView = async (viewUrl, toolInput, toolResult, width) => {
  document.querySelector("#view")?.remove();
  const frame = document.createElement("iframe");
  frame.id = "view";
  frame.title = "htmldrop";
  frame.setAttribute("sandbox", "allow-scripts allow-popups allow-forms");
  frame.style.cssText = "width:100%;border:1px solid #ccc;height:600px";
  frame.src = viewUrl;
  document.querySelector("main").append(frame);
  const bridge = new AppBridge(null, { name: "htmldrop-e2e-host", version: "1.0.0" }, { openLinks: {}, serverTools: {} }, {
    hostContext: { theme: "light", displayMode: "inline", availableDisplayModes: ["inline"], containerDimensions: { width, maxHeight: 900 } },
  });
  bridge.oncalltool = async (params) => {
    window.toolCalls.push(params.name);
    return window.hostCallTool(params);
  };
  bridge.onopenlink = async ({ url }) => {
    window.openedLinks.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = Math.min(height, 900) + "px";
  };
  bridge.oninitialized = () => {
    bridge.sendToolInput({ arguments: toolInput });
    bridge.sendToolResult(toolResult);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
};
`;

function cspOf(declared: typeof view.csp): string {
  const list = (origins: string[]) => (origins.length > 0 ? origins.join(" ") : "'none'");
  // What a host builds from the view's declared CSP: inline code only, and exactly the declared origins.
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `connect-src ${list(declared.connectDomains)}`,
    `img-src data: ${declared.resourceDomains.join(" ")}`.trim(),
    `frame-src ${list(declared.frameDomains)}`,
  ].join("; ");
}

test.beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("apps-e2e");
  mcp = new Client({ name: "htmldrop-e2e-host", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL("/mcp", app.baseUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));

  const [content] = (await mcp.readResource({ uri: "ui://htmldrop/drop" })).contents as unknown as [{ text: string; mimeType: string; _meta: { ui: { csp: typeof view.csp } } }];
  expect(content.mimeType).toBe("text/html;profile=mcp-app");
  view = { text: content.text, csp: content._meta.ui.csp };

  const bundled = await build({ stdin: { contents: HOST_SCRIPT, resolveDir: process.cwd(), loader: "js" }, bundle: true, format: "iife", write: false, platform: "browser" });
  const hostJs = bundled.outputFiles[0]!.text;
  host = createServer((request, response) => {
    if (request.url === "/host.js") return response.writeHead(200, { "content-type": "text/javascript" }).end(hostJs);
    if (request.url === "/view") return response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": cspOf(view.csp) }).end(view.text);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end('<!doctype html><html lang="en"><head><title>Host</title><script src="/host.js"></script></head><body style="margin:0;font-family:sans-serif"><main></main></body></html>');
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostPort = (host.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await mcp?.close();
  await new Promise((resolve) => host?.close(resolve));
  await app?.stop();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  return result;
}

/** The host page (127.0.0.1) shows the view (served from localhost: another origin) for a tool call. */
const bridged = new WeakSet<Page>();

async function openHost(page: Page, args: Record<string, unknown>, result: CallToolResult, width: number) {
  if (!bridged.has(page)) {
    await page.exposeFunction("hostCallTool", (params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }) => mcp.callTool(params));
    bridged.add(page);
  }
  await page.goto(`http://127.0.0.1:${hostPort}/`);
  await page.evaluate(([url, input, output, w]) => (window as any).showView(url, input, output, w), [`http://localhost:${hostPort}/view`, args, result, width] as const);
  return page.frameLocator("#view");
}

test("create_drop's view shows the drop in a nested frame, switches versions and opens links through the host", async ({ page }) => {
  const args = { title: "Quarterly plan", html: "<!doctype html><html lang='en'><head><title>Plan</title></head><body><h1>Plan, first draft</h1><p>Ship the importer.</p></body></html>", context: "Drafted from the kickoff notes." };
  const created = await call("create_drop", args);
  const slug = (created.structuredContent as { slug: string }).slug;
  await call("update_drop", { slug, html: "<!doctype html><html lang='en'><head><title>Plan</title></head><body><h1>Plan, second draft</h1><p>Ship the importer and the exporter.</p></body></html>", context: "Added the exporter." });
  const latest = await call("get_drop", { slug });

  for (const screen of SCREENS) {
    await page.setViewportSize({ width: screen.width, height: screen.height });
    const viewFrame = await openHost(page, { slug }, latest, screen.width);
    await expect(viewFrame.locator("#title")).toHaveText("Quarterly plan");
    await expect(viewFrame.locator("#count")).toHaveText("of 2");
    const documentFrame = viewFrame.frameLocator("#document");
    await expect(documentFrame.locator("h1")).toHaveText("Plan, second draft");

    // The context is behind a toggle.
    await expect(viewFrame.locator("#context")).toBeHidden();
    await viewFrame.locator("#context-toggle").click();
    await expect(viewFrame.locator("#context")).toHaveText("Added the exporter.");
    // Nothing overflows a phone's width.
    expect(await viewFrame.locator("body").evaluate((body) => body.scrollWidth <= body.clientWidth)).toBe(true);
    // The view as the host shows it (the README's screenshots: docs/screenshots/mcp-app*.png).
    await page.locator("#view").screenshot({ path: screenshotPath("mcp-app", `drop-view-${screen.name}`) });

    await viewFrame.locator("#compare").click();
    await viewFrame.locator("#version").selectOption("1");
    await expect(documentFrame.locator("h1")).toHaveText("Plan, first draft");
    await expect(viewFrame.locator("#context")).toHaveText("Drafted from the kickoff notes.");
    // Version 1 has no previous version to compare with.
    await expect(viewFrame.locator("#compare")).toBeHidden();
    await viewFrame.locator("#open").click();
    await expect.poll(() => page.evaluate(() => (window as any).openedLinks)).toEqual([`${app.baseUrl}/p/${slug}/compare?from=1&to=2`, `${app.baseUrl}/p/${slug}?v=1`]);
  }
});

test("a locked, restricted drop shows through the host's call; a hostile drop reaches neither the view, the host nor the token", async ({ page }) => {
  const hostile = `<!doctype html><html lang="en"><head><title>Hostile</title></head><body><h1>Hostile drop</h1><pre id="out"></pre><script>
    const out = [];
    try { out.push("view:" + parent.document.title); } catch { out.push("view:blocked"); }
    try { out.push("host:" + top.document.title); } catch { out.push("host:blocked"); }
    try { out.push("storage:" + typeof localStorage.length); } catch { out.push("storage:blocked"); }
    const forged = { jsonrpc: "2.0", id: 900, method: "tools/call", params: { name: "delete_drop", arguments: { slug: location.pathname.split("/")[2] } } };
    parent.postMessage(forged, "*");
    top.postMessage(forged, "*");
    parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { structuredContent: { slug: "aaaaaaaaaaaa", latest_version: 1, title: "Forged" } } }, "*");
    try { top.location.href = "https://evil.example/"; } catch {}
    document.getElementById("out").textContent = out.join(" ");
  </script></body></html>`;
  const created = await call("create_drop", { title: "Locked hostile", html: hostile, passcode: "open sesame", access: "restricted" });
  const drop = created.structuredContent as { slug: string };

  await page.setViewportSize({ width: 1280, height: 800 });
  const viewFrame = await openHost(page, { title: "Locked hostile" }, created, 1280);
  const documentFrame = viewFrame.frameLocator("#document");
  await expect(documentFrame.locator("#out")).toHaveText("view:blocked host:blocked storage:blocked");
  await expect(viewFrame.locator("#title")).toHaveText("Locked hostile");

  // The forged calls went nowhere: the host passed on only the view's own get_version, the drop is still there.
  expect(await page.evaluate(() => (window as any).toolCalls)).toEqual(["get_version"]);
  expect(page.url()).toBe(`http://127.0.0.1:${hostPort}/`);
  await call("get_drop", { slug: drop.slug });

  // Neither the token nor the passcode is anywhere the browser holds.
  for (const frame of page.frames()) {
    const html = await frame.content().catch(() => "");
    expect(html).not.toContain(token);
    expect(html).not.toContain("open sesame");
    expect(frame.url()).not.toContain(token);
  }
});
