import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { AUTH_BODY_MAX_BYTES, readJsonBody } from "@/lib/api/body";
import { errorResponse } from "@/lib/api/responses";
import { CALLBACK_URL_COOKIES, isSafeCallbackUrl } from "./callback-url";
import { nextAuthOrigin } from "./next-auth";

/**
 * What next-auth would turn into a bare 500, dealt with before it runs: a refusal to answer instead,
 * or null once the request is safe to hand over.
 */
export async function prepareNextAuthRequest(request: NextRequest): Promise<Response | null> {
  // next-auth parses a JSON body itself (its session update posts one), on any of its paths, before it
  // looks at the path, and lets a malformed one throw: such a body is refused here, read from a copy,
  // under the same condition next-auth reads it.
  if (request.method === "POST" && request.body && request.headers.get("content-type")?.includes("application/json")) {
    try {
      await readJsonBody(request.clone(), { maxBytes: AUTH_BODY_MAX_BYTES });
    } catch (error) {
      return errorResponse(error);
    }
  }
  // A callbackUrl query or cookie that is not one of this app's URLs means the home page: next-auth
  // would answer a malformed one with a 500, before its redirect callback ever runs. Every repeat is
  // checked: next-auth takes the last.
  const baseUrl = nextAuthOrigin();
  const callbackUrls = request.nextUrl.searchParams.getAll("callbackUrl");
  if (callbackUrls.some((callbackUrl) => !isSafeCallbackUrl(callbackUrl, baseUrl))) request.nextUrl.searchParams.set("callbackUrl", baseUrl);
  const jar = await cookies();
  for (const name of CALLBACK_URL_COOKIES) {
    const value = jar.get(name)?.value;
    if (value !== undefined && !isSafeCallbackUrl(value, baseUrl)) jar.delete(name);
  }
  return null;
}
