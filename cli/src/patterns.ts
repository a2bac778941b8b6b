// patterns: the account's and the built-in page patterns; a template written out as a starting point.
import { writeFileSync } from "node:fs";
import { connect } from "./api";
import { CliError, EXIT, usageError } from "./errors";
import { note, print, printJson, printTable } from "./output";
import type { Pattern, PatternSummary } from "./types";

export async function listPatterns(options: { json?: boolean }): Promise<void> {
  const { patterns } = await connect().json<{ patterns: PatternSummary[] }>("/api/patterns");
  if (options.json) return printJson(patterns);
  printTable(
    ["NAME", "SOURCE", "TEMPLATE", "DESCRIPTION"],
    patterns.map((pattern) => [pattern.name, pattern.source, pattern.has_template ? "yes" : "", pattern.description]),
  );
}

export async function showPattern(name: string, options: { template?: string; force?: boolean; json?: boolean }): Promise<void> {
  const pattern = await connect().json<Pattern>(`/api/patterns/${encodeURIComponent(name)}`);
  if (options.template !== undefined) {
    if (pattern.template === null) throw new CliError(`The pattern ${pattern.name} has no template.`, EXIT.notFound);
    try {
      writeFileSync(options.template, pattern.template, { flag: options.force ? "w" : "wx" });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw usageError(`${options.template} exists; pass --force to overwrite it.`);
      throw usageError(`Cannot write ${options.template} (${code ?? (error as Error).message}).`);
    }
    note(`Wrote the ${pattern.name} template to ${options.template}; publish it with htmldrop publish ${options.template}.`);
    return;
  }
  if (options.json) return printJson(pattern);
  print(pattern.markdown.trimEnd());
}
