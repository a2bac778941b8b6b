-- Issue 35: an acknowledgement that no writer deletes (one that came after its writer stopped waiting, or
-- from an instance no writer waited for) is swept by the instances' lease renewals once it is old
-- (lib/db/kept-rows.ts); the rows there before this column get the time of the migration.
ALTER TABLE "KeptRowsAck" ADD COLUMN "ackedAt" TIMESTAMPTZ NOT NULL DEFAULT now();
