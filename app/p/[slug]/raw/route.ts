import { serveRaw, toWebResponse } from "@/lib/serving/raw";

// On `npm start` server.ts answers these requests before Next; this handler serves them on Vercel.
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  // The platform compresses what a function answers (Vercel's CDN, or `next start` itself), so the
  // document goes out as it is: compressed here as well, `next start` sent it gzipped twice.
  const headers = Object.fromEntries(request.headers);
  delete headers["accept-encoding"];
  return toWebResponse(await serveRaw({ method: request.method, url: request.url, headers }));
}

export { handle as GET, handle as HEAD };
