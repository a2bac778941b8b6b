-- Search engines are told not to index a drop unless its owner opts in: off for every existing drop.
ALTER TABLE "Drop" ADD COLUMN "indexable" BOOLEAN NOT NULL DEFAULT false;
