// Operator commands. `npm run admin -- token create --login <name> [--label <label>] [--scope <scope>]...
// [--drop <slug>]... [--expires <30d|12h|ISO date>]` creates the local account <name> if needed and prints
// a new API token as the last line of stdout.
import "./env-files.mjs";
import { parseArgs } from "node:util";
import { createOperatorToken } from "@/lib/accounts/create-token";
import { SCOPES } from "@/lib/accounts/scopes";
import { now } from "@/lib/clock";
import { ConfigError, getConfig } from "@/lib/config";
import { disconnectDb } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { isApiError } from "@/lib/errors";
import { createTokenBodySchema } from "@/lib/schemas/accounts";

const USAGE =
  "usage: npm run admin -- token create --login <name> [--label <label>] [--scope <scope>]... [--drop <slug>]... [--expires <30d|12h|ISO date>]\n" +
  `  --scope   repeatable: ${SCOPES.join(", ")} (default: all three)\n` +
  "  --drop    repeatable: limit the token to these drops of the account (default: every drop)\n" +
  "  --expires a lifetime such as 90d, 12h or 30m, or an ISO date such as 2027-01-31 (default: never)";
const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30d`, `12h`, `45m`, or an ISO 8601 date or date-time; Unix milliseconds. */
function parseExpiry(text: string, at: number): number {
  const lifetime = /^([1-9][0-9]{0,5})([mhd])$/.exec(text.trim());
  if (lifetime) return at + Number(lifetime[1]) * UNIT_MS[lifetime[2] as keyof typeof UNIT_MS];
  if (/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) {
    const ms = Date.parse(text.trim());
    if (Number.isFinite(ms)) return ms;
  }
  throw new UsageError(`--expires: "${text}" is neither a lifetime like 30d, 12h or 45m nor an ISO date like 2027-01-31`);
}

/** The command-line flag behind a field of the POST /api/tokens body. */
function flagOf(field: string): string {
  return { label: "--label", scopes: "--scope", drops: "--drop", expires_at: "--expires" }[field] ?? "arguments";
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      login: { type: "string" },
      label: { type: "string" },
      scope: { type: "string", multiple: true },
      drop: { type: "string", multiple: true },
      expires: { type: "string" },
    },
  });
  if (positionals.join(" ") !== "token create" || !values.login) throw new UsageError(USAGE);
  if (!LOGIN_PATTERN.test(values.login)) throw new UsageError("--login: 1 to 39 letters, digits, '_', '.' or '-', starting with a letter or digit");
  // The same rules as POST /api/tokens.
  const request = createTokenBodySchema.safeParse({
    label: values.label,
    scopes: values.scope,
    drops: values.drop,
    expires_at: values.expires === undefined ? undefined : parseExpiry(values.expires, now()),
  });
  if (!request.success) {
    const issue = request.error.issues[0];
    throw new UsageError(`${flagOf(String(issue?.path[0]))}: ${issue?.message}`);
  }

  await migrate(getConfig().database);
  let created;
  try {
    created = await createOperatorToken(values.login, { ...request.data, label: request.data.label ?? null });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const field = (error.details?.fields as { field: string; message: string }[] | undefined)?.[0];
    throw new UsageError(field ? `${flagOf(field.field.split(".")[0]!)}: ${field.message}` : error.message);
  }
  const { token, summary, userId } = created;
  const limits = [
    `scopes ${summary.scopes.join(", ")}`,
    summary.drops ? `drops ${summary.drops.join(", ")}` : "every drop",
    summary.expires_at === null ? "no expiry" : `expires ${new Date(summary.expires_at).toISOString()}`,
  ];
  console.error(`Created token ${summary.id} for ${values.login} (user ${userId}; ${limits.join("; ")}). It is shown once; keep it secret.`);
  console.log(token);
}

class UsageError extends Error {}

main(process.argv.slice(2))
  .catch((error: unknown) => {
    console.error(error instanceof UsageError || error instanceof ConfigError ? error.message : error);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  })
  .finally(() => disconnectDb());
