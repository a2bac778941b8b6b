-- OAuth for MCP clients: oidc-provider's records (keyed by hashed ids) and the account's approved grants.
CREATE TABLE "OAuthRecord" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "model" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "grantId" TEXT,
    "uid" TEXT,
    "expiresAt" DATETIME
);
CREATE INDEX "OAuthRecord_grantId_idx" ON "OAuthRecord"("grantId");
CREATE INDEX "OAuthRecord_uid_idx" ON "OAuthRecord"("uid");
CREATE INDEX "OAuthRecord_expiresAt_idx" ON "OAuthRecord"("expiresAt");

CREATE TABLE "OAuthGrant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "grantId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientName" TEXT,
    "scopes" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "OAuthGrant_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "OAuthGrant_grantId_key" ON "OAuthGrant"("grantId");
CREATE INDEX "OAuthGrant_userId_idx" ON "OAuthGrant"("userId");
