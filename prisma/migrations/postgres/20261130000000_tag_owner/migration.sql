-- Issue 27: a metadata filter reads only its account's tags, through an index that leads with the
-- owner, whatever the planner's statistics say. Tag rows carry their drop's owner (drops never change
-- owner). The (key, value) index, which spans every account, served nothing else.
ALTER TABLE "DropTag" ADD COLUMN "ownerId" TEXT;
UPDATE "DropTag" SET "ownerId" = "Drop"."ownerId" FROM "Drop" WHERE "Drop"."id" = "DropTag"."dropId";
ALTER TABLE "DropTag" ALTER COLUMN "ownerId" SET NOT NULL;

DROP INDEX "DropTag_key_value_idx";
CREATE INDEX "DropTag_ownerId_key_value_dropId_idx" ON "DropTag"("ownerId", "key", "value", "dropId");
