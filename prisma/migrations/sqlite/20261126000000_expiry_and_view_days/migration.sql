-- A drop may expire: the viewer and raw answer 410 after expiresAt, and the purge deletes it
-- EXPIRED_RETENTION_DAYS later (the index serves the purge and the list's `expired` filter).
ALTER TABLE "Drop" ADD COLUMN "expiresAt" DATETIME;
CREATE INDEX "Drop_expiresAt_idx" ON "Drop"("expiresAt");

-- Views per drop, version and UTC day, written in the same batches as Drop.viewCount.
CREATE TABLE "DropViewDay" (
    "dropId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "day" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("dropId", "day", "version"),
    CONSTRAINT "DropViewDay_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "Drop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
