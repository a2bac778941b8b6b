// Whether a thrown value means the database could not be used at all (down, restarting, out of
// connections, locked by another process), as opposed to a fault of the request or of the code.
// Such failures answer 503 with Retry-After; see toApiError.

/**
 * Prisma: can't reach the server, timed out reaching it, operation timed out, server closed the
 * connection, pool timeout, and a deadlock still there after transaction()'s retries.
 */
const PRISMA_OUTAGE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2034"]);
/** P2028 is any misuse of the transaction API; these two of its messages are a transaction that waited out its time. */
const PRISMA_TRANSACTION_TIMED_OUT = /Unable to start a transaction in the given time|cannot be executed on an expired transaction/;
/** Driver adapter error kinds; the SQLite adapter reports SQLITE_BUSY (busy timeout spent) as SocketTimeout. */
const ADAPTER_OUTAGE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TransactionWriteConflict"]);
/** PostgreSQL SQLSTATE: connection exceptions (08), insufficient resources (53), shutdown or startup (57P01-57P03). */
const POSTGRES_OUTAGE_STATE = /^(08|53|57P0[123])/;
const SOCKET_OUTAGE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
/** node-postgres signals a dropped connection or a pool wait that ran out with plain Errors, told apart only by message. */
const PG_OUTAGE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

type Inspectable = { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };

function adapterCauseIsOutage(adapterError: unknown): boolean {
  const cause = (adapterError as { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } | undefined)?.cause;
  if (!cause) return false;
  if (ADAPTER_OUTAGE_KINDS.has(String(cause.kind))) return true;
  return cause.kind === "postgres" && POSTGRES_OUTAGE_STATE.test(String(cause.code));
}

export function isDatabaseOutage(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 3) return false;
  const value = error as Inspectable;
  const code = typeof value.code === "string" ? value.code : "";
  if (PRISMA_OUTAGE_CODES.has(code) || SOCKET_OUTAGE_CODES.has(code)) return true;
  if (code === "P2028" && typeof value.message === "string" && PRISMA_TRANSACTION_TIMED_OUT.test(value.message)) return true;
  // better-sqlite3's own connections (the serving lookup) throw SqliteError with the extended code.
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return true;
  if (POSTGRES_OUTAGE_STATE.test(code) && typeof (value as { severity?: unknown }).severity === "string") return true;
  if (adapterCauseIsOutage(value.meta?.driverAdapterError)) return true;
  if (value.name === "DriverAdapterError" && adapterCauseIsOutage(value)) return true;
  if (typeof value.message === "string" && PG_OUTAGE_MESSAGE.test(value.message)) return true;
  return isDatabaseOutage(value.cause, depth + 1);
}
