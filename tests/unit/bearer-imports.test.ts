// A bearer token is checked, and tokens are listed and revoked, on every withToken route and MCP call:
// none of that may load oidc-provider, which only the OAuth endpoints and the consent page need.
import { expect, it, vi } from "vitest";

vi.mock("oidc-provider", () => {
  throw new Error("oidc-provider was loaded");
});

it.each(["@/lib/accounts/tokens", "@/lib/api/with-token"])("%s loads without oidc-provider", async (path) => {
  await expect(import(/* @vite-ignore */ path)).resolves.toBeDefined();
});
