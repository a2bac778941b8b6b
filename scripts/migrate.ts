// `npm run db:migrate`: applies pending migrations and exits. `npm start` does this by itself; platforms
// without a long-running server (Vercel) run it in their build step.
import "./env-files.mjs";
import { ConfigError, getConfig } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";

async function main(): Promise<void> {
  const applied = await migrate(getConfig().database);
  console.log(applied.length > 0 ? `htmldrop: applied migrations ${applied.join(", ")}` : "htmldrop: database is up to date");
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
});
