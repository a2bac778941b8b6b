// A drop's expiry: set with expires_at or ttl_seconds on any write, read by the API, the serving paths
// and the purge. The schemas check each field's type and range; what depends on the time is checked here.
import { ApiError } from "@/lib/errors";
import { EXPIRY_MAX_SECONDS } from "@/lib/schemas/drops";

export type ExpiryInput = { expires_at?: number | null; ttl_seconds?: number };

/** The expiry a write asks for: undefined leaves it as it is, null removes it. */
export function resolveExpiry(input: ExpiryInput, at: number): Date | null | undefined {
  if (input.expires_at !== undefined && input.ttl_seconds !== undefined) {
    throw new ApiError("invalid_arg", "Give expires_at or ttl_seconds, not both.", { fields: ["expires_at", "ttl_seconds"] });
  }
  if (input.ttl_seconds !== undefined) return new Date(at + input.ttl_seconds * 1000);
  if (input.expires_at === undefined || input.expires_at === null) return input.expires_at;
  if (input.expires_at <= at) {
    throw new ApiError("invalid_arg", "expires_at must be in the future; to stop sharing a drop now, delete it or set a passcode.", { field: "expires_at", now: at });
  }
  if (input.expires_at > at + EXPIRY_MAX_SECONDS * 1000) {
    throw new ApiError("invalid_arg", "expires_at is at most 10 years ahead.", { field: "expires_at", max: at + EXPIRY_MAX_SECONDS * 1000 });
  }
  return new Date(input.expires_at);
}

/** Expired from the expiry's very millisecond on. */
export function isExpired(expiresAt: Date | number | null, at: number): boolean {
  if (expiresAt === null) return false;
  return (typeof expiresAt === "number" ? expiresAt : expiresAt.getTime()) <= at;
}
