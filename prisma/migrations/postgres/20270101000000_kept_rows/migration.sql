-- Issue 35: the serving lookups' rows kept in each instance's memory between requests (lib/db/kept-rows.ts).
-- Bookkeeping beside the data model, as _prisma_migrations is: PostgreSQL only, never read through Prisma.

-- The instances that keep rows: each may answer from memory only while its lease runs, and a write
-- returns once every instance registered here has dropped what the write changed, or its lease has ended.
-- Unlogged: what it holds is worthless after a crash, when every lease has run out anyway. Times to the
-- microsecond, as now() gives them: a registration and a write's fence a fraction of a millisecond apart
-- are compared as they happened.
CREATE UNLOGGED TABLE "KeptRowsInstance" (
    "id" TEXT NOT NULL,
    "registeredAt" TIMESTAMPTZ NOT NULL,
    "leaseUntil" TIMESTAMPTZ NOT NULL,
    CONSTRAINT "KeptRowsInstance_pkey" PRIMARY KEY ("id")
);

-- An instance's word that it has read a write's fence, and so every change committed before it.
CREATE UNLOGGED TABLE "KeptRowsAck" (
    "fence" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    CONSTRAINT "KeptRowsAck_pkey" PRIMARY KEY ("fence", "instanceId")
);

-- Every statement that changes what the serving lookups read tells every listening instance, on a
-- channel of this schema's own (md5, as channel names stop at 63 bytes), once its transaction commits.
CREATE FUNCTION "kept_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('htmldrop_kept_' || left(md5(TG_TABLE_SCHEMA), 16), '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "Drop_kept_rows_changed"
    AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "id", "slug", "ownerId", "passcodeHash", "latestVersion", "versionSeq", "revision", "expiresAt", "indexable", "access" ON "Drop"
    FOR EACH STATEMENT EXECUTE FUNCTION "kept_rows_changed"();

CREATE TRIGGER "Version_kept_rows_changed"
    AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "dropId", "number", "blobSha" ON "Version"
    FOR EACH STATEMENT EXECUTE FUNCTION "kept_rows_changed"();
