CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "login" TEXT,
    "createdAt" DATETIME NOT NULL,
    "dropCount" INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE "Identity" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,
    "login" TEXT,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "Identity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Identity_provider_providerAccountId_key" ON "Identity"("provider", "providerAccountId");
CREATE INDEX "Identity_userId_idx" ON "Identity"("userId");

CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "label" TEXT,
    "createdAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ApiToken_hash_key" ON "ApiToken"("hash");
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

CREATE TABLE "DeviceAuth" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "code" TEXT NOT NULL,
    "pollTokenHash" TEXT NOT NULL,
    "label" TEXT,
    "status" TEXT NOT NULL,
    "clientKey" TEXT,
    "createdAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "userId" TEXT,
    "approvedAt" DATETIME,
    "claimedAt" DATETIME,
    "apiTokenId" TEXT
);
CREATE UNIQUE INDEX "DeviceAuth_code_key" ON "DeviceAuth"("code");
CREATE UNIQUE INDEX "DeviceAuth_pollTokenHash_key" ON "DeviceAuth"("pollTokenHash");

CREATE TABLE "Drop" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "passcodeHash" TEXT,
    "latestVersion" INTEGER NOT NULL,
    "versionSeq" INTEGER NOT NULL,
    "versionCount" INTEGER NOT NULL,
    "viewCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Drop_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Drop_slug_key" ON "Drop"("slug");
CREATE INDEX "Drop_ownerId_createdAt_idx" ON "Drop"("ownerId", "createdAt");
CREATE INDEX "Drop_ownerId_updatedAt_idx" ON "Drop"("ownerId", "updatedAt");
CREATE INDEX "Drop_ownerId_viewCount_idx" ON "Drop"("ownerId", "viewCount");

CREATE TABLE "Blob" (
    "sha256" TEXT NOT NULL PRIMARY KEY,
    "bytes" BLOB NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL
);

CREATE TABLE "Version" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "dropId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "blobSha" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "context" TEXT,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "Version_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "Drop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Version_blobSha_fkey" FOREIGN KEY ("blobSha") REFERENCES "Blob" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Version_dropId_number_key" ON "Version"("dropId", "number");
CREATE INDEX "Version_blobSha_idx" ON "Version"("blobSha");

CREATE TABLE "DropTag" (
    "dropId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    PRIMARY KEY ("dropId", "key"),
    CONSTRAINT "DropTag_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "Drop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "DropTag_key_value_idx" ON "DropTag"("key", "value");

CREATE TABLE "RateLimitCounter" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL
);
CREATE INDEX "RateLimitCounter_expiresAt_idx" ON "RateLimitCounter"("expiresAt");

CREATE TABLE "IdempotencyKey" (
    "userId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("userId", "key")
);
CREATE INDEX "IdempotencyKey_createdAt_idx" ON "IdempotencyKey"("createdAt");
