-- The fixed layout width of a page without a viewport tag (lib/serving/inject.ts), and which planner
-- computed each blob's plan: NULL for plans stored before this migration, which are planned again on
-- first serve when they add a viewport tag (only those can have a layout width).
ALTER TABLE "Blob" ADD COLUMN "injectLayoutWidth" INTEGER;
ALTER TABLE "Blob" ADD COLUMN "injectPlanVersion" INTEGER;
