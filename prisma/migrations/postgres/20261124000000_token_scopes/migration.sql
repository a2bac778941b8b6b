-- Scoped API tokens. Tokens issued before this migration, and sign-ins pending at that moment, get all
-- three scopes, every drop and no expiry: they keep doing everything they did.
ALTER TABLE "ApiToken" ADD COLUMN "scopes" TEXT NOT NULL DEFAULT 'drops:read drops:write tokens:manage';
ALTER TABLE "ApiToken" ADD COLUMN "drops" TEXT;
ALTER TABLE "ApiToken" ADD COLUMN "expiresAt" TIMESTAMP(3);
ALTER TABLE "DeviceAuth" ADD COLUMN "scopes" TEXT NOT NULL DEFAULT 'drops:read drops:write tokens:manage';
