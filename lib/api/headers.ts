import { ApiError } from "@/lib/errors";
import { ifMatchSchema } from "@/lib/schemas/drops";

/** If-Match: "<n>" names the latest_version an edit is based on. */
export function parseIfMatch(value: string | null): number | undefined {
  if (value === null) return undefined;
  const parsed = ifMatchSchema.safeParse(value);
  if (!parsed.success) {
    throw new ApiError("invalid_arg", 'If-Match must be the quoted latest_version the edit is based on, like "3".', {
      fields: [{ field: "If-Match", message: 'expected a quoted version number, like "3"' }],
    });
  }
  return Number(parsed.data.replace(/[\s"]/g, ""));
}
