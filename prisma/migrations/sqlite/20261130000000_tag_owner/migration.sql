-- Issue 27: a metadata filter reads only its account's tags, through an index that leads with the
-- owner, whatever the planner's statistics say. Tag rows carry their drop's owner (drops never change
-- owner). The (key, value) index, which spans every account, served nothing else. SQLite adds a NOT
-- NULL column only with a default, so the table is rebuilt.
CREATE TABLE "new_DropTag" (
    "dropId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    PRIMARY KEY ("dropId", "key"),
    CONSTRAINT "DropTag_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "Drop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_DropTag" ("dropId", "ownerId", "key", "value")
SELECT "DropTag"."dropId", "Drop"."ownerId", "DropTag"."key", "DropTag"."value" FROM "DropTag" JOIN "Drop" ON "Drop"."id" = "DropTag"."dropId";
DROP TABLE "DropTag";
ALTER TABLE "new_DropTag" RENAME TO "DropTag";
CREATE INDEX "DropTag_ownerId_key_value_dropId_idx" ON "DropTag"("ownerId", "key", "value", "dropId");
