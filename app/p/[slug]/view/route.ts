import { after } from "next/server";
import { toWebResponse } from "@/lib/serving/raw";
import { countView } from "@/lib/serving/view-beacon";
import { flushViewCounts } from "@/lib/serving/views";

// On `npm start` server.ts answers these requests before Next; this handler serves them on Vercel.
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  const answer = await countView({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers) });
  // A serverless function may be frozen once it has answered; the batch is written before that.
  after(flushViewCounts);
  return toWebResponse(answer);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
