// Operator commands. `npm run admin -- token create --login <name> [--label <label>]` creates the
// local account <name> if needed and prints a new API token as the last line of stdout.
import { parseArgs } from "node:util";
import { issueToken } from "@/lib/accounts/tokens";
import { findOrCreateUserForIdentity, LOCAL_PROVIDER } from "@/lib/accounts/users";
import { ConfigError, getConfig } from "@/lib/config";
import { disconnectDb } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { tokenLabelSchema } from "@/lib/schemas/accounts";

const USAGE = "usage: npm run admin -- token create --login <name> [--label <label>]";
const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}$/;

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { login: { type: "string" }, label: { type: "string" } } });
  if (positionals.join(" ") !== "token create" || !values.login) throw new UsageError(USAGE);
  if (!LOGIN_PATTERN.test(values.login)) throw new UsageError("--login: 1 to 39 letters, digits, '_', '.' or '-', starting with a letter or digit");
  // The same rule as a label from the device flow.
  const label = values.label === undefined ? null : tokenLabelSchema.safeParse(values.label);
  if (label && !label.success) throw new UsageError(`--label: ${label.error.issues[0]?.message}`);

  await migrate(getConfig().database);
  const user = await findOrCreateUserForIdentity({ provider: LOCAL_PROVIDER, providerAccountId: values.login.toLowerCase(), login: values.login });
  const { token, id } = await issueToken(user.id, label?.data ?? null);
  console.error(`Created token ${id} for ${values.login} (user ${user.id}). It is shown once; keep it secret.`);
  console.log(token);
}

class UsageError extends Error {}

main(process.argv.slice(2))
  .catch((error: unknown) => {
    console.error(error instanceof UsageError || error instanceof ConfigError ? error.message : error);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  })
  .finally(() => disconnectDb());
