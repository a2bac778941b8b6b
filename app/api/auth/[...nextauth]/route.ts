import NextAuth from "next-auth";
import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { CALLBACK_URL_COOKIES, isSafeCallbackUrl } from "@/lib/auth/callback-url";
import { asApiRefusal, otherMethods } from "@/lib/api/responses";
import { isLoopbackRequest } from "@/lib/auth/loopback";
import { getAuthOptions } from "@/lib/auth/next-auth";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request: the local sign-in is offered only to requests addressed to loopback.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  const options = getAuthOptions({ loopbackHost: isLoopbackRequest(request.headers) });
  // A callbackUrl query or cookie that is not one of this app's URLs means the home page: next-auth
  // would answer a malformed one with a 500, before its redirect callback ever runs.
  const baseUrl = new URL(process.env.NEXTAUTH_URL!).origin;
  const callbackUrl = request.nextUrl.searchParams.get("callbackUrl");
  if (callbackUrl !== null && !isSafeCallbackUrl(callbackUrl, baseUrl)) request.nextUrl.searchParams.set("callbackUrl", baseUrl);
  const jar = await cookies();
  for (const name of CALLBACK_URL_COOKIES) {
    const value = jar.get(name)?.value;
    if (value !== undefined && !isSafeCallbackUrl(value, baseUrl)) jar.delete(name);
  }
  return asApiRefusal(request, await NextAuth(request, context, options));
}

export { handler as GET, handler as POST };
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
