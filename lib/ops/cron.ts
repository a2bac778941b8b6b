// Vercel's cron calls its routes with `Authorization: Bearer <CRON_SECRET>`; nothing else may.
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { bearerCredential, constantTimeEqual } from "@/lib/security/tokens";

export function assertCronCaller(headers: Headers): void {
  const { cronSecret } = getConfig();
  if (cronSecret === null) throw new ApiError("forbidden", "Scheduled jobs are not enabled here: set CRON_SECRET (Vercel sends it with each cron call).");
  const presented = bearerCredential(headers.get("authorization"));
  if (!presented) throw new ApiError("token_required", "Send `Authorization: Bearer <CRON_SECRET>`.");
  if (!constantTimeEqual(presented, cronSecret)) throw new ApiError("unauthorized", "That is not this deployment's CRON_SECRET.");
}
