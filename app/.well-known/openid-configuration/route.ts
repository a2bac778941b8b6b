import { oauthRoute } from "@/lib/oauth/bridge";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => oauthRoute(request);
export const OPTIONS = (request: Request) => oauthRoute(request);
