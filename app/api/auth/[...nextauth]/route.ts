import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { isLoopbackRequest } from "@/lib/auth/loopback";
import { getAuthOptions } from "@/lib/auth/next-auth";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request: the local sign-in is offered only to requests addressed to loopback.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  return NextAuth(request, context, getAuthOptions({ loopbackHost: isLoopbackRequest(request.headers) }));
}

export { handler as GET, handler as POST };
