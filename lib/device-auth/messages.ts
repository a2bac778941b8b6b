import { isApiError } from "@/lib/errors";

/** Every sentence the verification page shows about a flow, in one place so tests can assert them. */
export const DEVICE_AUTH_MESSAGES = {
  invalidCode: "This code is not valid. Check the code your agent showed you, or ask it to start a new sign-in.",
  expired: "This code has expired. Ask your agent to start a new sign-in; it will show you a new code.",
  alreadyUsed: "This code has already been used. Each code approves one device once; ask your agent to start a new sign-in.",
  approved: "Device approved. You can return to your agent: it will pick up its token within a few seconds.",
  denied: "Device denied. It gets no access to your account; your agent will stop waiting. If you meant to approve it, ask it to start a new sign-in.",
  signedOut: "Your session ended before you approved. Sign in again to approve this device.",
  rateLimited: "Too many attempts from your network. Wait a minute, then try again.",
  unavailable: "Sign-in is briefly unavailable on this server. Try again in a few seconds.",
} as const;

export type DeviceAuthMessageKey = keyof typeof DEVICE_AUTH_MESSAGES;

export function isDeviceAuthMessageKey(value: unknown): value is DeviceAuthMessageKey {
  return typeof value === "string" && Object.hasOwn(DEVICE_AUTH_MESSAGES, value);
}

/** The notice for a lookup or approval that was refused before it ran, or null for any other error. */
export function refusalNotice(error: unknown): "rateLimited" | "unavailable" | null {
  if (!isApiError(error)) return null;
  if (error.code === "rate_limited") return "rateLimited";
  return error.code === "service_unavailable" ? "unavailable" : null;
}
