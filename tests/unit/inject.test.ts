import { parse, serialize, type DefaultTreeAdapterTypes as T } from "parse5";
import { describe, expect, it } from "vitest";
import { currentPlan, DEFENSIVE_BLOCK, DEFENSIVE_STYLE, FIRST_PREFIX_CHARS, INJECTION_PLAN_VERSION, injectDefensiveHead, planInjection, VIEWPORT_META } from "@/lib/html/inject";

// The whole block after the viewport tag, which starts with the spec's style element word for word.
const STYLE = DEFENSIVE_BLOCK;

function elements(node: T.ParentNode, tagName: string, found: T.Element[] = []): T.Element[] {
  for (const child of node.childNodes) {
    if (!("tagName" in child)) continue;
    if (child.tagName === tagName) found.push(child);
    elements(child, tagName, found);
  }
  return found;
}

function headOf(html: string): T.Element {
  const document = parse(html);
  const root = document.childNodes.find((node): node is T.Element => "tagName" in node && node.tagName === "html")!;
  return root.childNodes.find((node): node is T.Element => "tagName" in node && node.tagName === "head")!;
}

/** What a browser would build: the injected block is the last thing in <head>, one viewport, the body untouched. */
function expectWellInjected(source: string, output: string) {
  const head = headOf(output.replace(/^\uFEFF/, ""));
  const headElements = head.childNodes.filter((node): node is T.Element => "tagName" in node);
  const last = headElements.at(-1)!;
  expect(last.tagName).toBe("script");
  expect(last.attrs.map((attr) => attr.name)).toContain("data-htmldrop");
  const spec = headElements.find((element) => element.tagName === "style" && element.attrs.some((attr) => attr.name === "data-htmldrop"));
  expect(spec && serialize(spec)).toBe(DEFENSIVE_STYLE);
  const viewports = elements(parse(output.replace(/^\uFEFF/, "")), "meta").filter((meta) => meta.attrs.some((a) => a.name === "name" && a.value.toLowerCase() === "viewport"));
  expect(viewports).toHaveLength(1);
  const bodyOf = (html: string) => serialize(elements(parse(html.replace(/^\uFEFF/, "")), "body")[0]!);
  expect(bodyOf(output)).toBe(bodyOf(source));
  // Removing the block gives back the upload byte for byte.
  expect(output.replace(STYLE, "").replace(VIEWPORT_META, "")).toBe(source);
}

describe("injectDefensiveHead", () => {
  it("appends the block right before </head>", () => {
    const source = "<!DOCTYPE html><html><head><title>t</title></head><body><p>hi</p></body></html>";
    expect(injectDefensiveHead(source)).toBe(`<!DOCTYPE html><html><head><title>t</title>${VIEWPORT_META}${STYLE}</head><body><p>hi</p></body></html>`);
  });

  it("handles a bare fragment with neither <html> nor <head>", () => {
    const source = "<p>just a paragraph</p>";
    const output = injectDefensiveHead(source);
    expect(output).toBe(`${VIEWPORT_META}${STYLE}<p>just a paragraph</p>`);
    expectWellInjected(source, output);
  });

  it("keeps a doctype first so the document stays in standards mode", () => {
    const source = "<!doctype html>\n<h1>Title</h1>";
    const output = injectDefensiveHead(source);
    expect(output.startsWith("<!doctype html>")).toBe(true);
    expect(parse(output).mode).toBe("no-quirks");
    expectWellInjected(source, output);
  });

  it("inserts after the last head element when </head> is omitted", () => {
    const source = "<html><title>t</title><meta charset=utf-8><p>body</p></html>";
    const output = injectDefensiveHead(source);
    expect(output).toBe(`<html><title>t</title><meta charset=utf-8>${VIEWPORT_META}${STYLE}<p>body</p></html>`);
    expectWellInjected(source, output);
  });

  it("keeps a byte order mark in front", () => {
    const source = "\uFEFF<!DOCTYPE html><html><head><title>bom</title></head><body>x</body></html>";
    const output = injectDefensiveHead(source);
    expect(output).toBe(`\uFEFF<!DOCTYPE html><html><head><title>bom</title>${VIEWPORT_META}${STYLE}</head><body>x</body></html>`);
    expectWellInjected(source, output);
  });

  it("ignores <head> and </head> inside comments", () => {
    const source = "<!-- <head></head> --><!DOCTYPE html><html><!-- </head> --><head><title>c</title></head><body></body></html>";
    const output = injectDefensiveHead(source);
    expect(output.indexOf(STYLE)).toBe(output.lastIndexOf("</head>") - STYLE.length);
    expectWellInjected(source, output);
  });

  it("ignores </head> inside a script, a style, a textarea and an attribute", () => {
    const source = [
      "<html><head>",
      '<script>document.write("</head><body>"); var s = "<head>";</script>',
      "<style>/* </head> */ p{color:red}</style>",
      '<meta name="description" content="</head> trick">',
      "</head><body><textarea></head></textarea><div title='</head>'>x</div></body></html>",
    ].join("");
    const output = injectDefensiveHead(source);
    expect(output).toContain(`trick">${VIEWPORT_META}${STYLE}</head><body>`);
    expectWellInjected(source, output);
  });

  it("understands uppercase and mixed-case tags", () => {
    const source = "<!DOCTYPE HTML><HTML><HEAD><TITLE>Up</TITLE></HEAD><BODY><P>x</P></BODY></HTML>";
    const output = injectDefensiveHead(source);
    expect(output).toBe(`<!DOCTYPE HTML><HTML><HEAD><TITLE>Up</TITLE>${VIEWPORT_META}${STYLE}</HEAD><BODY><P>x</P></BODY></HTML>`);
    expectWellInjected(source, output);
  });

  it("keeps exactly one viewport when the document has its own", () => {
    const source = '<html><head><META NAME="Viewport" content="width=500"></head><body>v</body></html>';
    const output = injectDefensiveHead(source);
    expect(output).toBe(`<html><head><META NAME="Viewport" content="width=500">${STYLE}</head><body>v</body></html>`);
    expectWellInjected(source, output);
  });

  it("counts a viewport declared outside <head>", () => {
    const source = '<p>a</p><meta name="viewport" content="width=device-width">';
    const output = injectDefensiveHead(source);
    expect(output).not.toContain(VIEWPORT_META);
    expect(output).toBe(`${STYLE}${source}`);
  });

  it("does not treat a <head> inside a <template> as the document head", () => {
    const source = "<html><head><title>t</title></head><body><template><head></head></template></body></html>";
    const output = injectDefensiveHead(source);
    expect(output).toBe(`<html><head><title>t</title>${VIEWPORT_META}${STYLE}</head><body><template><head></head></template></body></html>`);
  });

  it("handles an empty document and one with only a head start tag", () => {
    expect(injectDefensiveHead("")).toBe(`${VIEWPORT_META}${STYLE}`);
    expect(injectDefensiveHead("<head>")).toBe(`<head>${VIEWPORT_META}${STYLE}`);
  });

  describe("documents longer than the first parsed prefix", () => {
    const filler = (chars: number) => `<p>${"words & more words ".repeat(Math.ceil(chars / 19))}</p>`;

    it("finds the end of a head that is itself longer than the prefix", () => {
      const source = `<html><head><style>${"p{color:red}".repeat(FIRST_PREFIX_CHARS / 4)}</style><title>t</title></head><body>x</body></html>`;
      const output = injectDefensiveHead(source);
      expect(output).toContain(`<title>t</title>${VIEWPORT_META}${STYLE}</head>`);
      expectWellInjected(source, output);
    });

    it("finds the end of a long head without </head>", () => {
      const source = `<title>t</title><!--${"c".repeat(FIRST_PREFIX_CHARS * 2)}--><meta charset="utf-8"><p>body</p>`;
      const output = injectDefensiveHead(source);
      expect(output).toContain(`<meta charset="utf-8">${VIEWPORT_META}${STYLE}<p>body</p>`);
      expectWellInjected(source, output);
    });

    it("counts a viewport far down the body, as written or spelled with character references", () => {
      for (const meta of ['<meta name="viewport" content="width=device-width">', '<meta name="&#118;iew&#x50;ort" content="width=device-width">']) {
        const source = `<html><head><title>t</title></head><body>${filler(FIRST_PREFIX_CHARS * 3)}${meta}</body></html>`;
        const output = injectDefensiveHead(source);
        expect(output, meta).not.toContain(VIEWPORT_META);
        expectWellInjected(source, output);
      }
    });

    it("neither counts nor misses a viewport tag cut in two by the prefix", () => {
      const meta = '<meta name="viewport" content="width=device-width">';
      for (let cut = 1; cut < meta.length; cut += 7) {
        const before = `<html><head><title>t</title></head><body><p>${"x".repeat(FIRST_PREFIX_CHARS - 50)}</p>`;
        const source = `${before.slice(0, FIRST_PREFIX_CHARS - cut)}${meta}</body></html>`;
        const output = injectDefensiveHead(source);
        expect(output, `cut ${cut}`).not.toContain(VIEWPORT_META);
        expectWellInjected(source, output);
      }
    });

    it("adds a viewport to a long document that has none", () => {
      const source = `<!DOCTYPE html><html><head><title>t</title></head><body>${filler(FIRST_PREFIX_CHARS * 5)}<!-- viewport --></body></html>`;
      const output = injectDefensiveHead(source);
      expect(output).toContain(`<title>t</title>${VIEWPORT_META}${STYLE}</head>`);
      expectWellInjected(source, output);
    });

    it("handles a frameset document", () => {
      const source = `<html><head><title>f</title></head><frameset cols="50%,50%"><frame src="a.html"><frame src="b.html"></frameset>${"<!-- x -->".repeat(FIRST_PREFIX_CHARS / 5)}</html>`;
      const output = injectDefensiveHead(source);
      expect(output).toContain(`<title>f</title>${VIEWPORT_META}${STYLE}</head>`);
    });
  });

  // How long this takes is measured by `npm run bench`, not asserted here.
  it("injects once into a 2 MB document full of </head> lookalikes", () => {
    const row = "<tr><td>cell</td><td><!-- </head> --></td></tr>\n";
    const source = `<!DOCTYPE html><html><head><title>big</title></head><body><table>${row.repeat(Math.floor(2_000_000 / row.length))}</table></body></html>`;
    const output = injectDefensiveHead(source);
    expect(output.length).toBe(source.length + VIEWPORT_META.length + STYLE.length);
    expect(output.indexOf(STYLE)).toBe(source.indexOf("</head>") + VIEWPORT_META.length);
  });
});

describe("fixed layout widths", () => {
  const legacy = (style: string, body = '<div id="page"><div class="col">a</div></div>') =>
    `<!DOCTYPE html><html><head><title>t</title><style>${style}</style></head><body>${body}</body></html>`;

  it.each([
    ["body{width:1200px;margin:0 auto}", 1200],
    ["html { min-width: 1200px !important }", 1200],
    ["/* old */ #page{width:980px}", 980],
    ["@import url(a.css); div#page.x, .other{min-width:1024px}", null],
    ["@import url(a.css); div#page, .other{min-width:1024px}", 1024],
    ["body{width:960px} #page{width:1180px}", 1180],
  ])("takes %j as the page's layout width", (style, width) => {
    expect(planInjection(legacy(style)).layoutWidth).toBe(width);
  });

  it.each([
    ["inside @media", "@media (min-width:1200px){#page{width:1170px}}"],
    ["on a nested element", ".col{width:1200px}"],
    ["a max-width", "body{max-width:1200px}"],
    ["relative", "body{width:100%;min-width:90vw}"],
    ["narrower than a layout", "body{width:320px}"],
    ["implausibly wide", "body{width:20000px}"],
  ])("ignores a width %s", (_, style) => {
    const plan = planInjection(legacy(style));
    expect(plan.layoutWidth).toBeNull();
    expect(injectDefensiveHead(legacy(style))).toContain(VIEWPORT_META);
  });

  it("reads an inline style on body or a top-level element", () => {
    expect(planInjection('<html><head></head><body style="width: 1000px"><p>x</p></body></html>').layoutWidth).toBe(1000);
    expect(planInjection('<body><div style="min-width:1100px">x</div></body>').layoutWidth).toBe(1100);
  });

  it("leaves a document with its own viewport tag alone", () => {
    const source = legacy("body{width:1200px}").replace("<title>", '<meta name="viewport" content="width=device-width"><title>');
    expect(planInjection(source)).toMatchObject({ addViewport: false, layoutWidth: null });
  });

  it("injects a viewport of that width and a zoom for where the viewport tag does not apply", () => {
    const output = injectDefensiveHead(legacy("body{width:1200px}"));
    expect(output).toContain(`</style><meta name="viewport" content="width=1200">${DEFENSIVE_BLOCK}<style data-htmldrop-layout>`);
    expect(output).toContain("@media (max-width:1199.98px){html{zoom:calc(100vw / 1200px)}html,body{max-width:1200px}}");
    expect(output).not.toContain(VIEWPORT_META);
  });

  it("finds the width in a head larger than the first prefix", () => {
    const source = legacy(`body{width:1200px}${"/* padding */".repeat(FIRST_PREFIX_CHARS / 8)}`);
    expect(planInjection(source).layoutWidth).toBe(1200);
  });
});

describe("stored plans", () => {
  it("plans again only a plan from before layout widths that adds a viewport tag", () => {
    expect(currentPlan({ offsetBytes: null, addViewport: null, layoutWidth: null, version: null })).toBeNull();
    expect(currentPlan({ offsetBytes: 10, addViewport: true, layoutWidth: null, version: null })).toBeNull();
    expect(currentPlan({ offsetBytes: 10, addViewport: false, layoutWidth: null, version: null })).toEqual({ offsetBytes: 10, addViewport: false, layoutWidth: null });
    expect(currentPlan({ offsetBytes: 10, addViewport: true, layoutWidth: 1200, version: INJECTION_PLAN_VERSION })).toEqual({ offsetBytes: 10, addViewport: true, layoutWidth: 1200 });
  });
});
