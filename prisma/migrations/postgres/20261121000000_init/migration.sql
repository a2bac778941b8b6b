CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "login" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "dropCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "Identity" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,
    "login" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "Identity_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Identity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Identity_provider_providerAccountId_key" ON "Identity"("provider", "providerAccountId");
CREATE INDEX "Identity_userId_idx" ON "Identity"("userId");

CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "label" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ApiToken_hash_key" ON "ApiToken"("hash");
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

CREATE TABLE "DeviceAuth" (
    "id" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "pollTokenHash" TEXT NOT NULL,
    "label" TEXT,
    "status" TEXT NOT NULL,
    "clientKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "userId" TEXT,
    "approvedAt" TIMESTAMP(3),
    "claimedAt" TIMESTAMP(3),
    "apiTokenId" TEXT,
    CONSTRAINT "DeviceAuth_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "DeviceAuth_code_key" ON "DeviceAuth"("code");
CREATE UNIQUE INDEX "DeviceAuth_pollTokenHash_key" ON "DeviceAuth"("pollTokenHash");

CREATE TABLE "Drop" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "passcodeHash" TEXT,
    "latestVersion" INTEGER NOT NULL,
    "versionSeq" INTEGER NOT NULL,
    "versionCount" INTEGER NOT NULL,
    "viewCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "Drop_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Drop_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Drop_slug_key" ON "Drop"("slug");
CREATE INDEX "Drop_ownerId_createdAt_idx" ON "Drop"("ownerId", "createdAt");
CREATE INDEX "Drop_ownerId_updatedAt_idx" ON "Drop"("ownerId", "updatedAt");
CREATE INDEX "Drop_ownerId_viewCount_idx" ON "Drop"("ownerId", "viewCount");

CREATE TABLE "Blob" (
    "sha256" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "Blob_pkey" PRIMARY KEY ("sha256")
);

CREATE TABLE "Version" (
    "id" TEXT NOT NULL,
    "dropId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "blobSha" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "context" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "Version_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Version_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "Drop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Version_blobSha_fkey" FOREIGN KEY ("blobSha") REFERENCES "Blob" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Version_dropId_number_key" ON "Version"("dropId", "number");
CREATE INDEX "Version_blobSha_idx" ON "Version"("blobSha");

CREATE TABLE "DropTag" (
    "dropId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "DropTag_pkey" PRIMARY KEY ("dropId", "key"),
    CONSTRAINT "DropTag_dropId_fkey" FOREIGN KEY ("dropId") REFERENCES "Drop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "DropTag_key_value_idx" ON "DropTag"("key", "value");

CREATE TABLE "RateLimitCounter" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "RateLimitCounter_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "RateLimitCounter_expiresAt_idx" ON "RateLimitCounter"("expiresAt");

CREATE TABLE "IdempotencyKey" (
    "userId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("userId", "key")
);
CREATE INDEX "IdempotencyKey_createdAt_idx" ON "IdempotencyKey"("createdAt");
