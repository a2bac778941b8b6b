-- Where the defensive block goes in each blob, computed once when the blob is stored, so that serving
-- never parses HTML. NULL for blobs stored before this migration: their plan is computed on first serve.
ALTER TABLE "Blob" ADD COLUMN "injectOffset" INTEGER;
ALTER TABLE "Blob" ADD COLUMN "injectViewport" BOOLEAN;
