// Generates one Prisma client per provider from prisma/schema.prisma. Prisma's client is
// provider-specific, so the PostgreSQL schema is derived here rather than kept by hand.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
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

// The client loads its query compiler from a module holding the WebAssembly as base64: that module's
// source and the string it exports stay in the heap for the process's life, 4.2 MB (issue 35,
// README "Memory"). Each client reads the bytes from a file beside it instead, which Next's bundler carries
// as an asset, as it does the preview card's font (the tests' esbuild bundles get a copy: fixture-commands.ts).
const require = createRequire(import.meta.url);
for (const provider of ["sqlite", "postgresql"]) {
  const base64Module = require.resolve(`@prisma/client/runtime/query_compiler_small_bg.${provider}.wasm-base64.mjs`);
  const base64 = /const wasm = "([A-Za-z0-9+/=]+)"/.exec(readFileSync(base64Module, "utf8"))?.[1];
  if (!base64) throw new Error(`${base64Module}: the base64 WebAssembly was not found`);
  const internal = join(root, "lib", "db", "generated", provider === "sqlite" ? "sqlite" : "postgres", "internal");
  writeFileSync(join(internal, `query_compiler.${provider}.wasm`), Buffer.from(base64, "base64"));
  const classFile = join(internal, "class.ts");
  const generated = readFileSync(classFile, "utf8");
  const loader = `const { wasm } = await import("@prisma/client/runtime/query_compiler_small_bg.${provider}.wasm-base64.mjs")
    return await decodeBase64AsWasm(wasm)`;
  if (!generated.includes(loader)) throw new Error(`${classFile}: the query compiler's loader was not found`);
  const fromFile = `const { readFile } = await import("node:fs/promises")
    return new WebAssembly.Module(await readFile(new URL("./query_compiler.${provider}.wasm", import.meta.url)))`;
  writeFileSync(classFile, generated.replace(loader, fromFile));
}
