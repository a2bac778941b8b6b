// Runs the command line and turns every failure into one sentence on stderr and its exit code (errors.ts).
import { CommanderError } from "commander";
import { CliError, EXIT } from "./errors";
import { printError } from "./output";
import { buildProgram } from "./program";

const AUTH_CODES = new Set(["token_required", "invalid_token", "unauthorized"]);

function hint(error: CliError): string {
  if (!error.code || !AUTH_CODES.has(error.code)) return "";
  return process.env.HTMLDROP_TOKEN ? " Check HTMLDROP_TOKEN." : " Run htmldrop login to sign in again.";
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed its message (or the help, or the version, which exit 0).
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (error instanceof CliError) {
    printError(`${error.message}${hint(error)}`);
    process.exitCode = error.exitCode;
  } else {
    printError(`Unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = EXIT.refused;
  }
}
