-- Issue 33: owner notifications by email: the account's setting and its pending digest.
ALTER TABLE "User" ADD COLUMN "notifyComments" BOOLEAN NOT NULL DEFAULT true;

CREATE TABLE "NotificationDigest" (
    "userId" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3),
    "throughEventId" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "claimToken" TEXT,
    CONSTRAINT "NotificationDigest_pkey" PRIMARY KEY ("userId"),
    CONSTRAINT "NotificationDigest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "NotificationDigest_dueAt_idx" ON "NotificationDigest"("dueAt");
