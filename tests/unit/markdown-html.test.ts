import { describe, expect, it } from "vitest";
import { buildOnboardingMarkdown } from "@/lib/discovery/onboard";
import { renderInlineMarkdown, renderMarkdownToHtml } from "@/lib/discovery/markdown-html";

describe("the Markdown renderer of the discovery documents", () => {
  it("renders headings, paragraphs, fenced code, lists and tables", () => {
    const html = renderMarkdownToHtml(
      ["# Title", "", "Some **bold** and `code`,", "on two lines.", "", "```json", '{"a": "<b>"}', "```", "", "- one", "- two `x`", "", "1. first", "2. second", "", "| a | b |", "|---|---|", "| `c` | d |"].join("\n"),
    );
    expect(html).toBe(
      [
        '<h1 id="title">Title</h1>',
        "<p>Some <strong>bold</strong> and <code>code</code>, on two lines.</p>",
        '<pre tabindex="0"><code class="language-json">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}</code></pre>',
        "<ul><li>one</li><li>two <code>x</code></li></ul>",
        "<ol><li>first</li><li>second</li></ol>",
        '<div class="table" tabindex="0"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td><code>c</code></td><td>d</td></tr></tbody></table></div>',
      ].join("\n"),
    );
  });

  it("never passes raw HTML through, in any construct", () => {
    const attack = '<script>alert(1)</script><img src=x onerror="alert(2)">';
    for (const markdown of [attack, `# ${attack}`, `- ${attack}`, `| ${attack} |\n|---|\n| ${attack} |`, `**${attack}**`, `\`${attack}\``, "```\n" + attack + "\n```"]) {
      const html = renderMarkdownToHtml(markdown);
      expect(html, markdown).not.toMatch(/<script|<img/i);
      expect(html, markdown).toContain("&lt;script&gt;");
    }
  });

  it("links only http(s) URLs and paths of this site", () => {
    expect(renderInlineMarkdown("[docs](/docs) and [x](https://example.com/a?b=1&c=2)")).toBe('<a href="/docs">docs</a> and <a href="https://example.com/a?b=1&amp;c=2">x</a>');
    expect(renderInlineMarkdown("[bad](javascript:alert(1))")).not.toContain("<a");
    expect(renderInlineMarkdown("[bad](//evil.example)")).not.toContain("<a");
    expect(renderInlineMarkdown('Go to https://example.com/x"onclick="y. Then')).toBe('Go to <a href="https://example.com/x&quot;onclick=&quot;y">https://example.com/x&quot;onclick=&quot;y</a>. Then');
  });

  it("renders the whole onboarding guide: every section heading, no Markdown syntax left in the text", () => {
    const markdown = buildOnboardingMarkdown();
    const html = renderMarkdownToHtml(markdown);
    const headings = [...markdown.matchAll(/^#{1,3} (.*)$/gm)].length;
    expect((html.match(/<h[1-3] /g) ?? []).length).toBe(headings);
    const text = html.replace(/<pre>[\s\S]*?<\/pre>/g, "").replace(/<[^>]+>/g, "");
    expect(text).not.toContain("```");
    expect(text).not.toMatch(/\*\*\w/);
    expect(text).not.toMatch(/`[^`]+`/);
  });
});
