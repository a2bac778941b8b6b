import { oauthRoute } from "@/lib/oauth/bridge";

export const dynamic = "force-dynamic";

// RFC 8414 metadata: the same document oidc-provider serves at the OpenID path.
export const GET = (request: Request) => oauthRoute(request, "/.well-known/openid-configuration");
export const OPTIONS = (request: Request) => oauthRoute(request, "/.well-known/openid-configuration");
