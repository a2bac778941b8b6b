// The built-in patterns' templates (issue 18) are copied by agents as the model of a self-contained
// drop, so none may reference anything outside itself, and each must carry the basics of a well-formed
// page. Every patterns/*.template.html is checked; the Markdown beside it is validated by the catalog.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, type DefaultTreeAdapterTypes as T } from "parse5";
import { describe, expect, it } from "vitest";

const PATTERNS_DIR = join(import.meta.dirname, "..", "..", "patterns");
const TEMPLATES = readdirSync(PATTERNS_DIR).filter((file) => file.endsWith(".template.html")).sort();
const MAX_BYTES = 24 * 1024;

/** Attributes that load or point at a resource. */
const URL_ATTRIBUTES = new Set(["src", "href", "srcset", "action", "poster", "data", "formaction", "xlink:href"]);
// A scheme ("https:", "data:", "javascript:") or a protocol-relative "//host".
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

function isElement(node: T.ChildNode | T.Document): node is T.Element {
  return "tagName" in node;
}

/** Every element of the document, <template> contents included. */
function allElements(document: T.Document): T.Element[] {
  const found: T.Element[] = [];
  const stack: T.ParentNode[] = [document];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const child of node.childNodes) {
      if (!isElement(child)) continue;
      found.push(child);
      stack.push(child);
      if (child.tagName === "template") stack.push((child as T.Template).content);
    }
  }
  return found;
}

/** The attribute's name as written: parse5 splits SVG's `xlink:href` into prefix and name. */
function attributeName(attr: T.Element["attrs"][number]): string {
  return attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
}

/** The URLs an attribute holds: one, or a srcset's candidates. */
function urls(name: string, value: string): string[] {
  if (name !== "srcset") return [value.trim()];
  return value.split(",").map((candidate) => candidate.trim().split(/\s+/)[0] ?? "");
}

function textOf(element: T.Element): string {
  return element.childNodes.map((node) => ("value" in node ? node.value : "")).join("");
}

function attribute(element: T.Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

/** What in the document would make a browser fetch from elsewhere, as readable findings. */
function externalReferences(document: T.Document): string[] {
  const found: string[] = [];
  for (const element of allElements(document)) {
    for (const attr of element.attrs) {
      const name = attributeName(attr);
      if (URL_ATTRIBUTES.has(name)) {
        for (const url of urls(name, attr.value)) {
          if (!url.startsWith("#") && EXTERNAL.test(url)) found.push(`<${element.tagName} ${name}="${url}">`);
        }
      }
      if (name === "style" && /url\(|@import/i.test(attr.value)) found.push(`<${element.tagName} style="${attr.value}">`);
    }
    if (element.tagName === "style" && /url\(|@import/i.test(textOf(element))) found.push(`url( or @import in a <style> element`);
  }
  return found;
}

describe("pattern templates", () => {
  it("there are at least the five built-in ones", () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(5);
  });

  describe.each(TEMPLATES)("%s", (file) => {
    const source = readFileSync(join(PATTERNS_DIR, file), "utf8");
    const document = parse(source);
    const elements = allElements(document);
    const named = (tagName: string) => elements.filter((element) => element.tagName === tagName);

    it(`is under ${MAX_BYTES / 1024} KB`, () => {
      expect(Buffer.byteLength(source, "utf8")).toBeLessThan(MAX_BYTES);
    });

    it("references nothing outside itself", () => {
      expect(externalReferences(document)).toEqual([]);
    });

    it("is a complete HTML5 document with a language, a title and the viewport and colour-scheme tags", () => {
      expect(source.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(attribute(named("html")[0]!, "lang")).toMatch(/^[a-z]{2}/);
      expect(named("meta").some((meta) => attribute(meta, "charset")?.toLowerCase() === "utf-8")).toBe(true);
      expect(textOf(named("title")[0]!).trim()).not.toBe("");
      const meta = (name: string) => named("meta").find((element) => attribute(element, "name") === name);
      expect(attribute(meta("viewport")!, "content")).toMatch(/width=device-width/);
      expect(attribute(meta("color-scheme")!, "content")).toBe("light dark");
    });

    it("has exactly one <main>", () => {
      expect(named("main")).toHaveLength(1);
    });
  });
});

describe("externalReferences", () => {
  // The check itself, on what it must catch and what it must let through.
  it("finds absolute and protocol-relative URLs, url( and @import, and allows fragments and inline SVG", () => {
    const found = externalReferences(
      parse(`<!DOCTYPE html><html><head><link rel="stylesheet" href="https://cdn.example/a.css"><style>@import "b.css";</style></head>
<body><img srcset="small.png 1x, //cdn.example/big.png 2x"><a href="#top">top</a><div style="background:url(x.png)"></div>
<svg><use xlink:href="https://example.com/s.svg#i"/><use href="#local"/></svg><form action="mailto:a@example.com"></form></body></html>`),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        '<link href="https://cdn.example/a.css">',
        "url( or @import in a <style> element",
        '<img srcset="//cdn.example/big.png">',
        '<div style="background:url(x.png)">',
        '<use xlink:href="https://example.com/s.svg#i">',
        '<form action="mailto:a@example.com">',
      ]),
    );
    expect(found).toHaveLength(6);
  });
});
