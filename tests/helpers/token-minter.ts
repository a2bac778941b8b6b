// The tests' fixture tokens: what `npm run admin -- token create --login <login>` does
// (createOperatorToken), in one long-lived process per test server instead of one process per token,
// which cost most of a second of CPU, a few hundred times a run. Reads `{"login","label"}` lines on
// stdin and answers each with a `{"token"}` or `{"error"}` line, in order. The server has migrated the
// database before a test asks for a token; the admin command itself is tested through `npm run admin`.
import { createInterface } from "node:readline";
import { createOperatorToken } from "@/lib/accounts/create-token";
import { disconnectDb } from "@/lib/db";

for await (const line of createInterface({ input: process.stdin })) {
  const { login, label } = JSON.parse(line) as { login: string; label?: string };
  const answer = await createOperatorToken(login, { label: label ?? null }).then(
    ({ token }) => ({ token }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await disconnectDb();
