"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/session";
import { approveDeviceAuth, refusalNotice, type ApproveOutcome } from "@/lib/device-auth";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { verifyPath } from "./paths";

/** The approve button: a plain form POST, so it works without JavaScript. The page then shows the outcome. */
export async function approveDeviceAction(formData: FormData): Promise<void> {
  // A hand-made request can pass anything where the page passes its form; no code then.
  const code = formData instanceof FormData ? String(formData.get("code") ?? "").slice(0, 32) : "";
  const user = await getSessionUser();
  let outcome: ApproveOutcome | "rateLimited" | "unavailable" = "signedOut";
  if (user) {
    try {
      outcome = await approveDeviceAuth({ code, userId: user.userId, clientKey: clientKeyFromHeaders(await headers()) });
    } catch (error) {
      const notice = refusalNotice(error);
      if (!notice) throw error;
      outcome = notice;
    }
  }
  redirect(verifyPath(code, outcome === "rateLimited" || outcome === "unavailable" || outcome === "signedOut" ? outcome : undefined));
}
