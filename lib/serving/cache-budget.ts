// The bytes one process keeps in memory to answer without the database's rows or a render, split
// between its three caches. With what the process needs anyway (Next, the code, the database client: about 130 MB
// at idle), the budget keeps `npm start` near 300 MB under load (README, "Memory").
const MIB = 1024 * 1024;

export const CACHE_BUDGET_BYTES = 64 * MIB;
/** Raw documents as served (lib/serving/served-documents.ts): identity bytes and their compressed forms. */
export const SERVED_DOCUMENTS_BYTES = 44 * MIB;
/**
 * The hot reads' rows, most under a kilobyte: on SQLite kept until the database changes (lib/db/reads.ts),
 * on PostgreSQL the serving lookups' until a write's notification (lib/db/kept-rows.ts).
 */
export const DATABASE_ROWS_BYTES = 4 * MIB;
/** Rendered pages (lib/serving/page-cache.ts): a viewer page is 10 to 30 KB, plain and gzipped. */
export const PAGE_CACHE_BYTES = CACHE_BUDGET_BYTES - SERVED_DOCUMENTS_BYTES - DATABASE_ROWS_BYTES;
