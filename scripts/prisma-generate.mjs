// Generates one Prisma client per provider from prisma/schema.prisma. Prisma's client is
// provider-specific, so the PostgreSQL schema is derived here rather than kept by hand.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sqliteSchema = join(root, "prisma", "schema.prisma");
const postgresSchema = join(root, "node_modules", ".htmldrop", "postgres", "schema.prisma");

const source = readFileSync(sqliteSchema, "utf8");
const derived = source
  .replace('provider = "sqlite"', 'provider = "postgresql"')
  .replace('"../lib/db/generated/sqlite"', JSON.stringify(join(root, "lib", "db", "generated", "postgres")));
if (derived === source) throw new Error("prisma/schema.prisma: provider or output line not found");
mkdirSync(dirname(postgresSchema), { recursive: true });
writeFileSync(postgresSchema, derived);

// Generation never runs the schema engine, but the CLI insists that one exists; where its
// download is blocked, any existing file satisfies the check.
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const prisma = join(root, "node_modules", "prisma", "build", "index.js");
for (const schema of [sqliteSchema, postgresSchema]) {
  execFileSync(process.execPath, [prisma, "generate", "--schema", schema], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
}
