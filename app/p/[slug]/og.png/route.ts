import { servePreviewImage } from "@/lib/previews/og-image";
import { toWebResponse } from "@/lib/serving/raw";

// A drop version's Open Graph image (lib/previews/og-image.ts), on `npm start` and Vercel alike.
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  return toWebResponse(await servePreviewImage({ method: request.method, url: new URL(request.url), headers: request.headers }));
}

export { handle as GET, handle as HEAD };
