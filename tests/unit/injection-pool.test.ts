import { describe, expect, it } from "vitest";
import { fallbackPlan, injectedBytes, planInjection, VIEWPORT_META } from "@/lib/html/inject";
import { planInjectionOffThread } from "@/lib/html/injection-pool";

/** A 1 MB page without a viewport tag: the whole of it is parsed. */
const LARGE = `<!DOCTYPE html><html><head><title>t</title></head><body>${"<p>row <b>bold</b> &amp; more</p>\n".repeat(30_000)}</body></html>`;
/**
 * Far past any budget: 2 MB of nested <template> tags in a head took 3 to 6 s to parse, and this is
 * five times that many (no upload can be this large; the pool takes any bytes).
 */
const HOSTILE = `<!DOCTYPE html><html><head><title>t</title>${"<template>".repeat(1_000_000)}</head><body>x</body></html>`;

// Parsing megabytes on a shared 2-core machine: generous limits, no timing asserted.
describe("planInjectionOffThread", { timeout: 60_000 }, () => {
  it("plans exactly what planInjection plans", async () => {
    const documents = ["<p>bare</p>", "\uFEFF<!DOCTYPE html><html><head><title>é ü 😀</title></head><body>x</body></html>", '<meta name="viewport" content="width=1"><p>v</p>', ""];
    for (const source of documents) {
      expect(await planInjectionOffThread(Buffer.from(source, "utf8"), "same")).toEqual(planInjection(source));
    }
  });

  it("keeps the event loop turning while a large document is parsed", async () => {
    let turns = 0;
    const ticker = setInterval(() => turns++, 1);
    try {
      expect(await planInjectionOffThread(Buffer.from(LARGE), "large")).toEqual(planInjection(LARGE));
    } finally {
      clearInterval(ticker);
    }
    // Parsed on this thread, the timer could not have fired until the parse was over.
    expect(turns).toBeGreaterThan(20);
  });

  it("gives a document that outlasts the budget the fallback placement, and keeps working", async () => {
    const bytes = Buffer.from(HOSTILE);
    expect(await planInjectionOffThread(bytes, "hostile")).toEqual(fallbackPlan(bytes));
    expect(await planInjectionOffThread(Buffer.from("<p>next</p>"), "hostile")).toEqual(planInjection("<p>next</p>"));
  });

  it("lets other accounts go first instead of queueing them behind one account's documents", async () => {
    const finished: string[] = [];
    const hostile = Array.from({ length: 4 }, (_, i) => planInjectionOffThread(Buffer.from(LARGE), "mallory").then(() => finished.push(`mallory ${i}`)));
    const innocent = planInjectionOffThread(Buffer.from("<p>hello</p>"), "alice").then(() => finished.push("alice"));
    await Promise.all([...hostile, innocent]);
    expect(finished.indexOf("alice")).toBeLessThan(finished.indexOf("mallory 3"));
  });
});

describe("fallbackPlan", () => {
  it("puts the block at the end, with a viewport only when the document names none", () => {
    const source = Buffer.from("<p>a</p>");
    expect(injectedBytes(source, fallbackPlan(source)).toString()).toMatch(new RegExp(`^<p>a</p>${VIEWPORT_META}<style data-htmldrop>`));
    const withViewport = Buffer.from('<p>a</p><meta name="VIEWPORT" content="width=1">');
    expect(fallbackPlan(withViewport)).toEqual({ offsetBytes: withViewport.length, addViewport: false, layoutWidth: null });
  });
});
