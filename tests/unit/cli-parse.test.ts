// What the command-line client makes of what people type (cli/src/parse.ts), and the help every command
// carries. Its behaviour against a server is tests/api/cli.test.ts.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { CliError } from "@/cli/src/errors";
import { htmlTitle, parseExpiry, parseTags, parseTokenExpiry } from "@/cli/src/parse";
import { buildProgram } from "@/cli/src/program";

function usageMessage(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error("no usage error");
}

describe("--tag and --upsert", () => {
  it("split at the first = and keep the rest of the value", () => {
    expect(parseTags(["pr=42", "query=a=b", "empty="])).toEqual({ pr: "42", query: "a=b", empty: "" });
  });

  it.each([
    [["novalue"], '--tag takes key=value, like --tag pr=42; got "novalue".'],
    [["=value"], '--tag takes key=value, like --tag pr=42; got "=value".'],
    [["pr=1", "PR=2"], '--tag names the key "PR" twice.'],
  ])("refuse %j", (texts, message) => {
    expect(usageMessage(() => parseTags(texts))).toBe(message);
  });
});

describe("--expires", () => {
  it("sends a lifetime as ttl_seconds, for the server's clock to count", () => {
    expect(parseExpiry("45m")).toEqual({ ttl_seconds: 2700 });
    expect(parseExpiry("12h")).toEqual({ ttl_seconds: 43_200 });
    expect(parseExpiry("7d")).toEqual({ ttl_seconds: 604_800 });
    expect(parseExpiry("2w")).toEqual({ ttl_seconds: 1_209_600 });
  });

  it("sends a date as expires_at, and never as null", () => {
    expect(parseExpiry("2027-01-31")).toEqual({ expires_at: Date.UTC(2027, 0, 31) });
    expect(parseExpiry("2027-01-31T12:30:00+02:00")).toEqual({ expires_at: Date.UTC(2027, 0, 31, 10, 30) });
    expect(parseExpiry("never")).toEqual({ expires_at: null });
  });

  it.each(["7", "7x", "0d", "-1d", "tomorrow", "2027-13-45", ""])("refuses %j", (text) => {
    expect(usageMessage(() => parseExpiry(text))).toMatch(/^--expires takes a lifetime like 45m, 12h, 7d or 2w/);
  });

  it("makes a token's lifetime a moment, which is all POST /api/tokens takes", () => {
    expect(parseTokenExpiry("30d", 1_000)).toBe(1_000 + 30 * 86_400_000);
    expect(parseTokenExpiry("2027-01-31", 1_000)).toBe(Date.UTC(2027, 0, 31));
    expect(usageMessage(() => parseTokenExpiry("never", 1_000))).toMatch(/^--expires takes a lifetime like 12h/);
  });
});

describe("a new drop's title from the document", () => {
  it.each([
    ["<html><head><title>Q3 &amp; Q4</title></head></html>", "Q3 & Q4"],
    ["<TITLE lang=en>\n  Two\n  lines </TITLE>", "Two lines"],
    ["<title>&#x1F4CA; &#169; &bogus; &#99999999;</title>", "📊 © &bogus; &#99999999;"],
    ["<title> </title>", null],
    ["<h1>No title</h1>", null],
  ])("%j gives %j", (html, title) => {
    expect(htmlTitle(html)).toBe(title);
  });
});

describe("help", () => {
  function commands(command: Command): Command[] {
    return command.commands.filter((child) => child.name() !== "help").flatMap((child) => [child, ...commands(child)]);
  }

  it("shows an example for every command", () => {
    const program = buildProgram();
    const listed = commands(program);
    expect(listed.map((command) => command.name())).toEqual(expect.arrayContaining(["login", "publish", "watch", "create", "show"]));
    for (const command of listed) {
      let help = "";
      command.configureOutput({ writeOut: (text) => (help += text) });
      command.outputHelp();
      expect(help, command.name()).toMatch(/\nExamples:\n {2}\$ .*htmldrop /);
    }
  });
});
