-- Accounts' own patterns: a name is unique within an account, and goes with the account. The count is
-- reserved like dropCount, by a conditional update, so concurrent saves cannot pass the limit.
ALTER TABLE "User" ADD COLUMN "patternCount" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "Pattern" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT NOT NULL,
    "triggers" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "template" TEXT,
    "hasTemplate" BOOLEAN NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Pattern_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Pattern_userId_name_key" ON "Pattern"("userId", "name");
