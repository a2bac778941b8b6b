-- Issue 31: a comment can point at a passage of the drop, as a TextQuoteSelector (the passage, and a
-- little text either side of it). Null on every existing comment: none has one.
ALTER TABLE "Comment" ADD COLUMN "anchorExact" TEXT;
ALTER TABLE "Comment" ADD COLUMN "anchorPrefix" TEXT;
ALTER TABLE "Comment" ADD COLUMN "anchorSuffix" TEXT;
