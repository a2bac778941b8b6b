import { getDrop, listVersions } from "@/lib/drops";
import { isApiError } from "@/lib/errors";
import type { DropJson, VersionListItemJson } from "@/lib/schemas/drops";

export type DropDetail = { drop: DropJson; versions: VersionListItemJson[] };

/** One of the owner's drops with its versions (newest first), or null when it is missing or someone else's. */
export async function loadDropDetail(userId: string, slug: string): Promise<DropDetail | null> {
  try {
    const [drop, versions] = await Promise.all([getDrop(userId, slug), listVersions(userId, slug)]);
    return { drop, versions: versions.toReversed() };
  } catch (error) {
    if (isApiError(error) && (error.code === "not_found" || error.code === "forbidden" || error.code === "invalid_slug")) return null;
    throw error;
  }
}
