// Patterns' Markdown: the front matter rules every pattern is held to (built-in or an account's), and
// the built-in catalog itself, read from patterns/ as the service reads it.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { builtinPatterns, parsePatternMarkdown } from "@/lib/patterns";
import { BUILTIN_PATTERNS_DIR } from "@/lib/patterns/builtin";

const VALID = "---\nname: release-notes\ndescription: Our release notes.\ntriggers:\n  - write the release notes\n  - what shipped\n---\n\n# Release notes\n\nBody.\n";

function refusal(markdown: string): { code: string; message: string; details?: { fields?: { field: string }[] } } {
  try {
    parsePatternMarkdown(markdown);
  } catch (error) {
    const { code, message, details } = error as { code: string; message: string; details?: { fields?: { field: string }[] } };
    return { code, message, details };
  }
  throw new Error("accepted");
}

describe("parsePatternMarkdown", () => {
  it("reads the front matter and keeps the guide after it", () => {
    const { frontMatter, body } = parsePatternMarkdown(VALID);
    expect(frontMatter).toEqual({ name: "release-notes", description: "Our release notes.", triggers: ["write the release notes", "what shipped"] });
    expect(body).toBe("\n# Release notes\n\nBody.\n");
  });

  it("takes the guide's first level-one heading as its title, or none", () => {
    expect(parsePatternMarkdown(VALID).title).toBe("Release notes");
    expect(parsePatternMarkdown(VALID.replace("# Release notes", "## Only a section\n\n#  Closed heading ##")).title).toBe("Closed heading");
    expect(parsePatternMarkdown(VALID.replace("# Release notes", "Plain text")).title).toBeNull();
    expect(parsePatternMarkdown(VALID.replace("# Release notes", `# ${"é".repeat(200)}`)).title).toBe("é".repeat(120));
  });

  it("accepts a byte-order mark, CRLF line ends, a flow list and keys it does not know", () => {
    const { frontMatter } = parsePatternMarkdown("\uFEFF---\r\nname: a1\r\ndescription: d\r\ntriggers: [one, two]\r\nauthor: me\r\n---\r\n# A\r\n");
    expect(frontMatter).toEqual({ name: "a1", description: "d", triggers: ["one", "two"] });
  });

  it.each([
    ["no front matter", "# Just a guide\n", "starts with YAML front matter"],
    ["front matter never closed", "---\nname: a\n# guide\n", "starts with YAML front matter"],
    ["YAML that does not parse", "---\nname: [a\n---\n# A\n", "not valid YAML"],
    ["a list instead of a mapping", "---\n- a\n- b\n---\n# A\n", "YAML mapping"],
    ["a key given twice", "---\nname: a\nname: b\ndescription: d\ntriggers: [t]\n---\n# A\n", "not valid YAML"],
    ["nothing after the front matter", "---\nname: a\ndescription: d\ntriggers: [t]\n---\n\n", "no guide"],
  ])("refuses %s", (_case, markdown, words) => {
    const error = refusal(markdown);
    expect(error.code).toBe("invalid_pattern");
    expect(error.message).toContain(words);
  });

  it.each([
    ["a name that is not kebab-case", "name: Release_Notes", "front_matter.name"],
    ["a name over 64 characters", `name: ${"a".repeat(65)}`, "front_matter.name"],
    ["no triggers", "triggers: []", "front_matter.triggers"],
    ["a trigger that is not text", "triggers: [{a: b}]", "front_matter.triggers.0"],
    ["an empty description", "description: '  '", "front_matter.description"],
    ["a template of another name", "template: other.template.html", "front_matter.template"],
  ])("names the field for %s", (_case, line, field) => {
    const fields: Record<string, string> = { name: "name: a", description: "description: d", triggers: "triggers: [t]" };
    const key = line.split(":")[0]!;
    fields[key] = line;
    const error = refusal(`---\n${Object.values(fields).join("\n")}\n---\n# A\n`);
    expect(error.code).toBe("invalid_pattern");
    expect(error.details?.fields?.map((entry) => entry.field)).toContain(field);
  });

  it("expands no YAML alias bombs", () => {
    const bomb = `---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\nname: a\ndescription: d\ntriggers: [t]\n---\n# A\n`;
    expect(refusal(bomb).code).toBe("invalid_pattern");
  });
});

describe("the built-in catalog", () => {
  const patterns = [...builtinPatterns().values()];
  const SECTIONS = ["When to use", "Content checklist", "Layout", "What not to do"];

  it("holds at least the five kinds of page the catalog promises, each with a template", () => {
    const names = patterns.map((pattern) => pattern.frontMatter.name);
    expect(names).toEqual(expect.arrayContaining(["pr-explainer", "status-report", "design-proposal", "data-report", "decision-record"]));
    for (const pattern of patterns) expect(pattern.template, pattern.frontMatter.name).not.toBeNull();
  });

  it("is every file of patterns/: one guide per template, none left over", () => {
    const files = readdirSync(BUILTIN_PATTERNS_DIR).sort();
    const expected = patterns.flatMap((pattern) => [`${pattern.frontMatter.name}.md`, `${pattern.frontMatter.name}.template.html`]).sort();
    expect(files).toEqual(expected);
  });

  it.each(patterns.map((pattern) => [pattern.frontMatter.name, pattern] as const))("%s has one title and the four sections, in order", (_name, pattern) => {
    const { body } = parsePatternMarkdown(pattern.markdown);
    expect(body.match(/^# .+$/gm)).toHaveLength(1);
    expect(body.match(/^## (.+)$/gm)?.map((heading) => heading.slice(3).trim())).toEqual(SECTIONS);
    expect(pattern.frontMatter.template).toBe(`${pattern.frontMatter.name}.template.html`);
    expect(pattern.frontMatter.triggers.length).toBeGreaterThanOrEqual(3);
  });
});
