"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/session";
import { approveDeviceAuth, denyDeviceAuth, refusalNotice, type ApproveOutcome, type DenyOutcome } from "@/lib/device-auth";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { verifyPath } from "./paths";

type Decide = (input: { code: string; userId: string; clientKey: string }) => Promise<ApproveOutcome | DenyOutcome>;

/** Runs the approve or deny decision for the signed-in human; the page then shows the flow's new state. */
async function decide(formData: FormData, run: Decide): Promise<never> {
  // A hand-made request can pass anything where the page passes its form; no code then.
  const code = formData instanceof FormData ? String(formData.get("code") ?? "").slice(0, 32) : "";
  const user = await getSessionUser();
  let outcome: ApproveOutcome | DenyOutcome | "rateLimited" | "unavailable" = "signedOut";
  if (user) {
    try {
      outcome = await run({ code, userId: user.userId, clientKey: clientKeyFromHeaders(await headers()) });
    } catch (error) {
      const notice = refusalNotice(error);
      if (!notice) throw error;
      outcome = notice;
    }
  }
  redirect(verifyPath(code, outcome === "rateLimited" || outcome === "unavailable" || outcome === "signedOut" ? outcome : undefined));
}

/** The approve button: a plain form POST, so it works without JavaScript. The page then shows the outcome. */
export async function approveDeviceAction(formData: FormData): Promise<void> {
  await decide(formData, approveDeviceAuth);
}

/** The deny button: the agent's poll then answers `denied`. */
export async function denyDeviceAction(formData: FormData): Promise<void> {
  await decide(formData, denyDeviceAuth);
}
