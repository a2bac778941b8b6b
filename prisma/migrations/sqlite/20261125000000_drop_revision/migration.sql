-- Counts every write that changes what a drop's viewer page shows (PUT, PATCH, version delete, passcode
-- change), so an instance can tell whether the page it rendered and cached is still current.
ALTER TABLE "Drop" ADD COLUMN "revision" INTEGER NOT NULL DEFAULT 0;
