// `npm run backup -- <directory>`: a consistent copy of the database, and of generated secrets, while the server runs.
import "./env-files.mjs";
import { ConfigError, getConfig } from "@/lib/config";
import { BackupError, createBackup } from "@/lib/ops/backup";

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new BackupError("usage: npm run backup -- <new directory>");
  const manifest = await createBackup(getConfig(), dir);
  console.log(`htmldrop: backed up the ${manifest.provider} database${manifest.secrets ? " and secrets.json" : ""} to ${dir}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
});
