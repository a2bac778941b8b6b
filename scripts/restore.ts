// `npm run restore -- <directory>`: puts a backup from `npm run backup` in place. Stop the server first;
// `npm start` (or `npm run db:migrate`) then brings an older backup up to this version's schema.
import "./env-files.mjs";
import { ConfigError, getConfig } from "@/lib/config";
import { BackupError, restoreBackup } from "@/lib/ops/backup";

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new BackupError("usage: npm run restore -- <backup directory>");
  const restored = await restoreBackup(getConfig(), dir);
  console.log(`htmldrop: restored from ${dir}: ${restored.join("; ")}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
});
