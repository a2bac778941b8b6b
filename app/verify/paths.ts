import { normalizeUserCode } from "@/lib/device-auth";

/** The verification page for a code (normalized when it can be), optionally carrying a notice key. */
export function verifyPath(code: string, notice?: string): string {
  const shown = normalizeUserCode(code) ?? code;
  const query = new URLSearchParams(shown ? { code: shown } : {});
  if (notice) query.set("notice", notice);
  const search = query.toString();
  return search ? `/verify?${search}` : "/verify";
}
