import { oauthRoute } from "@/lib/oauth/bridge";

export const dynamic = "force-dynamic";

// Authorization, token, registration, revocation and keys: oidc-provider's routes (lib/oauth/provider.ts).
export const GET = (request: Request) => oauthRoute(request);
export const POST = (request: Request) => oauthRoute(request);
export const OPTIONS = (request: Request) => oauthRoute(request);
