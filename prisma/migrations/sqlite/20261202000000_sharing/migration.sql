-- Issue 30: who may open a drop (public, signed_in, restricted), its list of people and teams, and what
-- a sign-in tells about a person (a verified email, the org claim) for invitations and the org boundary.
ALTER TABLE "Drop" ADD COLUMN "access" TEXT NOT NULL DEFAULT 'public';
ALTER TABLE "Identity" ADD COLUMN "email" TEXT;
ALTER TABLE "Identity" ADD COLUMN "orgClaimValues" TEXT;
CREATE INDEX "Identity_email_idx" ON "Identity"("email");

CREATE TABLE "Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "Team_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "Team_ownerId_idx" ON "Team"("ownerId");

CREATE TABLE "TeamMember" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "userId" TEXT,
    "email" TEXT,
    "login" TEXT,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "TeamMember_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TeamMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "TeamMember_teamId_userId_key" ON "TeamMember"("teamId", "userId");
CREATE UNIQUE INDEX "TeamMember_teamId_email_key" ON "TeamMember"("teamId", "email");
CREATE UNIQUE INDEX "TeamMember_teamId_login_key" ON "TeamMember"("teamId", "login");
CREATE INDEX "TeamMember_userId_idx" ON "TeamMember"("userId");
CREATE INDEX "TeamMember_email_idx" ON "TeamMember"("email");
CREATE INDEX "TeamMember_login_idx" ON "TeamMember"("login");

CREATE TABLE "DropMember" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "dropId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "userId" TEXT,
    "teamId" TEXT,
    "email" TEXT,
    "login" TEXT,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "DropMember_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "Drop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DropMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DropMember_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "DropMember_dropId_userId_key" ON "DropMember"("dropId", "userId");
CREATE UNIQUE INDEX "DropMember_dropId_teamId_key" ON "DropMember"("dropId", "teamId");
CREATE UNIQUE INDEX "DropMember_dropId_email_key" ON "DropMember"("dropId", "email");
CREATE UNIQUE INDEX "DropMember_dropId_login_key" ON "DropMember"("dropId", "login");
CREATE INDEX "DropMember_userId_idx" ON "DropMember"("userId");
CREATE INDEX "DropMember_teamId_idx" ON "DropMember"("teamId");
CREATE INDEX "DropMember_email_idx" ON "DropMember"("email");
CREATE INDEX "DropMember_login_idx" ON "DropMember"("login");
