import { describe, expect, it } from "vitest";
import { canonicalTags, formatTagLines, parseTagFilter, parseTagLines, patchInputFromForm } from "@/lib/dashboard/forms";
import { keepingPosted } from "@/lib/dashboard/form-state";
import { ApiError, isApiError } from "@/lib/errors";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const rendered = { slug: "abcdef123", original_title: "Report", original_description: "", original_tags: canonicalTags({ project: "alpha" }) };

describe("dashboard tag lines", () => {
  it("round-trips a metadata map, ignoring blank lines and CRLF", () => {
    expect(parseTagLines(formatTagLines({ project: "alpha", team: "web" }))).toEqual({ project: "alpha", team: "web" });
    expect(parseTagLines("project = alpha\r\n\r\nnote=a=b\n")).toEqual({ project: "alpha", note: "a=b" });
    expect(parseTagLines("   \n")).toEqual({});
  });

  it("refuses a line that is not key=value, naming the line", () => {
    expect(() => parseTagLines("project=alpha\njust words")).toThrow(/Tag line 2/);
  });

  it("reads the list filter as AND pairs", () => {
    expect(parseTagFilter("project=alpha, team=web")).toEqual([["project", "alpha"], ["team", "web"]]);
    expect(parseTagFilter(" ")).toEqual([]);
    expect(() => parseTagFilter("alpha")).toThrow(/must look like key=value/);
  });
});

describe("the edit form's PATCH body", () => {
  it("holds only the fields the human changed", () => {
    expect(patchInputFromForm(form({ ...rendered, title: "Report", description: "", tags: "project=alpha" }))).toEqual({});
    expect(patchInputFromForm(form({ ...rendered, title: "Report 2", description: "", tags: "project=alpha\r\n" }))).toEqual({ title: "Report 2" });
    expect(patchInputFromForm(form({ ...rendered, title: "Report", description: "line 1\r\nline 2", tags: "project=alpha" }))).toEqual({ description: "line 1\nline 2" });
  });

  it("sends the whole tag map when tags change, and {} when they are cleared", () => {
    expect(patchInputFromForm(form({ ...rendered, title: "Report", description: "", tags: "project=beta\nStage=draft" }))).toEqual({ metadata: { project: "beta", stage: "draft" } });
    expect(patchInputFromForm(form({ ...rendered, title: "Report", description: "", tags: "" }))).toEqual({ metadata: {} });
  });

  it("validates with the shared schema: the API's codes and messages", () => {
    const attempts = [
      { title: "", tags: "project=alpha", code: "title_required" },
      { title: "x".repeat(201), tags: "project=alpha", code: "title_too_long" },
      { title: "Report", tags: "bad key!=1", code: "invalid_arg" },
    ];
    for (const attempt of attempts) {
      try {
        patchInputFromForm(form({ ...rendered, description: "", ...attempt }));
        expect.unreachable(`accepted ${attempt.code}`);
      } catch (error) {
        expect(isApiError(error) && error.code).toBe(attempt.code);
      }
    }
  });
});

describe("a refusal that keeps what was typed", () => {
  it("hands back the named fields only, with the refusal's message", () => {
    const refusal = keepingPosted(["title", "tags"])(new ApiError("title_too_long", "Title is too long."), form({ ...rendered, title: "Typed", tags: "a=b", passcode: "secret" }));
    expect(refusal).toEqual({ status: "error", message: "Title is too long.", posted: { title: "Typed", tags: "a=b" } });
  });
});
