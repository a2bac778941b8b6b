-- Issue 28: a token records the credential that minted it through POST /api/tokens (an API token's or
-- an OAuth grant's id; null for the device flow, the dashboard and the admin command), so revoking a
-- credential revokes what it minted. Tokens minted before this migration have no recorded minter.
ALTER TABLE "ApiToken" ADD COLUMN "mintedBy" TEXT;
CREATE INDEX "ApiToken_mintedBy_idx" ON "ApiToken"("mintedBy");
