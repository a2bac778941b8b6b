import { serveRaw } from "@/lib/serving/raw";

// On `npm start` server.ts answers these requests before Next; this handler serves them on Vercel.
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  const result = await serveRaw({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers) });
  const body = result.body ? new Blob(result.body.map((part) => new Uint8Array(part.buffer as ArrayBuffer, part.byteOffset, part.length))) : null;
  return new Response(body, { status: result.status, headers: result.headers });
}

export { handle as GET, handle as HEAD };
