-- Issue 33: owner notifications by email: the account's setting and its pending digest.
ALTER TABLE "User" ADD COLUMN "notifyComments" BOOLEAN NOT NULL DEFAULT true;

CREATE TABLE "NotificationDigest" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "dueAt" DATETIME,
    "throughEventId" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" DATETIME,
    "claimToken" TEXT,
    CONSTRAINT "NotificationDigest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "NotificationDigest_dueAt_idx" ON "NotificationDigest"("dueAt");
