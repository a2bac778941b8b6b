// Exit codes, so a script can tell what went wrong without reading the message.
export const EXIT = {
  ok: 0,
  /** The server refused the request (validation, conflict, limits), or the person answered no. */
  refused: 1,
  /** The command line is wrong: an unknown option, a missing argument, a file that cannot be read. */
  usage: 2,
  /** Not logged in, or the token is unknown, revoked, expired or lacks a scope. */
  auth: 3,
  /** The drop, version, token, comment or pattern does not exist. */
  notFound: 4,
  /** The server failed (5xx) or could not be reached. */
  unavailable: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the command reports as one sentence on stderr before it exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** The server's error code, when the server gave one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/** What an HTTP status means for the exit code. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404 || status === 410) return EXIT.notFound;
  if (status >= 500) return EXIT.unavailable;
  return EXIT.refused;
}
