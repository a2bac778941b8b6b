import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { asApiRefusal, otherMethods } from "@/lib/api/responses";
import { isLoopbackRequest } from "@/lib/auth/loopback";
import { getAuthOptions } from "@/lib/auth/next-auth";
import { prepareNextAuthRequest } from "@/lib/auth/next-auth-request";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request: the local sign-in is offered only to requests addressed to loopback.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  const refusal = await prepareNextAuthRequest(request);
  if (refusal) return refusal;
  const options = getAuthOptions({ loopbackHost: isLoopbackRequest(request.headers) });
  return asApiRefusal(request, await NextAuth(request, context, options));
}

export { handler as GET, handler as POST };
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
