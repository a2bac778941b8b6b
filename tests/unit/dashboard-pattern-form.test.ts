import { describe, expect, it } from "vitest";
import { patternErrorState, patternSaveFromForm } from "@/lib/dashboard/pattern-form";
import { ApiError } from "@/lib/errors";
import { parsePatternMarkdown } from "@/lib/patterns";
import { parseInput } from "@/lib/schemas/errors";
import { patternNameSchema, savePatternBodySchema } from "@/lib/schemas/patterns";

function form(fields: Record<string, string | File>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const GUIDE = "\n# Guide\n\nWhat a good page holds.\n";

function frontMatter(lines: string): string {
  return `---\n${lines}\n---\n${GUIDE}`;
}

const VALID = frontMatter("name: weekly\ndescription: A weekly page.\ntriggers:\n  - weekly report");

/** The error the service throws for this Markdown, as the form shows it. */
function shownFor(markdown: string, name = "weekly") {
  try {
    parsePatternMarkdown(markdown);
  } catch (error) {
    return patternErrorState(error, { name, markdown });
  }
  throw new Error("the Markdown was taken");
}

describe("the pattern form's fields", () => {
  it("become the name and PUT /api/patterns/{name}'s body: pasted text with LF line ends, no template when it is empty", async () => {
    const saved = await patternSaveFromForm(form({ name: " weekly ", markdown: VALID.replace(/\n/g, "\r\n"), template: "  " }));
    expect(saved).toEqual({ name: "weekly", input: { markdown: VALID } });
  });

  it("take the Markdown and the template from chosen files", async () => {
    const template = "<!doctype html><h1>Weekly</h1>";
    const saved = await patternSaveFromForm(
      form({ name: "weekly", markdown: "", markdown_file: new File([VALID], "weekly.md"), template: "", template_file: new File([template], "weekly.template.html") }),
    );
    expect(saved.input).toEqual({ markdown: VALID, template });
  });

  it("refuse a missing name, a missing Markdown, a file and text at once, and a file of the wrong kind, each under its field", async () => {
    const refusal = async (fields: Record<string, string | File>) => patternErrorState(await patternSaveFromForm(form(fields)).catch((error: unknown) => error), {});
    expect(await refusal({ name: "", markdown: VALID })).toEqual({ field: "name", message: "Give the pattern a name, such as weekly-report." });
    expect((await refusal({ name: "weekly", markdown: " " })).field).toBe("markdown");
    expect(await refusal({ name: "weekly", markdown: VALID, markdown_file: new File([VALID], "weekly.md") })).toEqual({
      field: "markdown",
      message: "Choose a Markdown file or paste the Markdown, not both: clear one of them.",
    });
    expect(await refusal({ name: "weekly", markdown: VALID, template_file: new File(["x"], "weekly.pdf") })).toEqual({
      field: "template",
      message: "“weekly.pdf” is not an HTML file. Choose a file ending in .html or .htm.",
    });
  });
});

describe("a refused pattern, in plain words under its field", () => {
  it("front matter the schema refuses: what to change", () => {
    expect(shownFor(frontMatter("name: weekly\ndescription: A weekly page."))).toEqual({ field: "markdown", message: "Check the front matter: add a “triggers:” line." });
    expect(shownFor(frontMatter("name: weekly\ndescription: A weekly page.\ntriggers: weekly report")).message).toBe(
      "Check the front matter: triggers is a list, one “- …” line per item.",
    );
    expect(shownFor(frontMatter("name: weekly\ndescription: ''\ntriggers:\n  - weekly report")).message).toBe("Check the front matter: description must not be empty.");
  });

  it("Markdown that is no pattern at all: the service's own sentence", () => {
    expect(shownFor("# Just a guide\n")).toEqual({ field: "markdown", message: expect.stringMatching(/^A pattern starts with YAML front matter/) });
  });

  it("a template named but not given goes under the template, naming its file", () => {
    const error = new ApiError("invalid_pattern", "no template", { fields: [{ field: "template", message: "required because the front matter names a template" }] });
    expect(patternErrorState(error, { name: "weekly" })).toEqual({
      field: "template",
      message: "The front matter names a template (template: weekly.template.html). Add it here, or remove the template line from the Markdown.",
    });
  });

  it("a name that is not kebab-case, pasted text over the limit, and the account's limit", () => {
    const badName = (() => {
      try {
        parseInput(patternNameSchema, "Weekly Report", "name");
      } catch (error) {
        return error;
      }
    })();
    expect(patternErrorState(badName, {})).toEqual({ field: "name", message: expect.stringMatching(/^A pattern name is kebab-case: .*\.$/) });

    const long = `${VALID}${"x".repeat(65_536)}`;
    const tooLarge = (() => {
      try {
        parseInput(savePatternBodySchema, { markdown: long });
      } catch (error) {
        return error;
      }
    })();
    expect(patternErrorState(tooLarge, { markdown: long })).toEqual({ field: "markdown", message: expect.stringMatching(/^The Markdown is 64\.\d KB; a pattern takes at most 64\.0 KB\./) });

    expect(patternErrorState(new ApiError("quota_exceeded", "full", { max_patterns: 50 }), {})).toEqual({
      field: "form",
      message: "You already keep 50 patterns, the most an account may. Delete one of yours first, or replace one by saving under its name.",
    });
  });
});
