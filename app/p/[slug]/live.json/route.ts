import { toWebResponse } from "@/lib/serving/raw";
import { serveLiveVersion } from "@/lib/serving/live-version";

// On `npm start` server.ts answers these requests before Next; this handler serves them on Vercel,
// whose CDN keeps a public drop's answer for the lifetime it names (lib/serving/live-version.ts).
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return toWebResponse(await serveLiveVersion({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers) }));
}

export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
