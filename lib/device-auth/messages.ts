/** Every sentence the verification page shows about a flow, in one place so tests can assert them. */
export const DEVICE_AUTH_MESSAGES = {
  invalidCode: "This code is not valid. Check the code your agent showed you, or ask it to start a new sign-in.",
  expired: "This code has expired. Ask your agent to start a new sign-in; it will show you a new code.",
  alreadyUsed: "This code has already been used. Each code approves one device once; ask your agent to start a new sign-in.",
  approved: "Device approved. You can return to your agent: it will pick up its token within a few seconds.",
  signedOut: "Your session ended before you approved. Sign in again to approve this device.",
  rateLimited: "Too many attempts from your network. Wait a minute, then try again.",
} as const;

export type DeviceAuthMessageKey = keyof typeof DEVICE_AUTH_MESSAGES;

export function isDeviceAuthMessageKey(value: unknown): value is DeviceAuthMessageKey {
  return typeof value === "string" && Object.hasOwn(DEVICE_AUTH_MESSAGES, value);
}
