import { serveRaw, toWebResponse } from "@/lib/serving/raw";

// On `npm start` server.ts answers these requests before Next; this handler serves them on Vercel.
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return toWebResponse(await serveRaw({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers) }));
}

export { handle as GET, handle as HEAD };
