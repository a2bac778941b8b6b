-- Comments on drops: who may post is the owner's choice per drop, off for every existing drop.
ALTER TABLE "Drop" ADD COLUMN "commentPolicy" TEXT NOT NULL DEFAULT 'off';

CREATE TABLE "Comment" (
    "id" TEXT NOT NULL,
    "dropId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "quote" TEXT,
    "authorKind" TEXT NOT NULL,
    "authorName" TEXT NOT NULL,
    "authorUserId" TEXT,
    "replyToId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "resolvedAt" TIMESTAMP(3),

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Comment_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "Drop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "Comment_dropId_createdAt_idx" ON "Comment"("dropId", "createdAt");
