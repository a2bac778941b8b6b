-- Issue 31: who may comment on the drops an account creates without saying. Off, as before, for every
-- existing account.
ALTER TABLE "User" ADD COLUMN "defaultCommentPolicy" TEXT NOT NULL DEFAULT 'off';
