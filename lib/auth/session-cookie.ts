// The signed-in user of a request that Next does not render (the view beacon, answered by the front
// door before Next): next-auth's JWT session cookie, decrypted with the same secret next-auth uses.
import { decode } from "next-auth/jwt";
import { getConfig } from "@/lib/config";
import { SESSION_COOKIE } from "./signed-in-hint";

/** Each session cookie of the header (Secure or not), its chunks joined in order. */
function sessionTokens(cookieHeader: string): string[] {
  const byName = new Map<string, [number, string][]>();
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    const match = separator < 0 ? null : SESSION_COOKIE.exec(part.slice(0, separator).trim());
    if (!match) continue;
    const chunks = byName.get(match[1]!) ?? [];
    chunks.push([match[2] === undefined ? -1 : Number(match[2]), part.slice(separator + 1).trim()]);
    byName.set(match[1]!, chunks);
  }
  return [...byName.values()].map((chunks) =>
    chunks
      .sort(([a], [b]) => a - b)
      .map(([, value]) => value)
      .join(""),
  );
}

/** The htmldrop user id of a valid session cookie in `cookieHeader`, or null (none, expired, forged). */
export async function sessionUserId(cookieHeader: string | undefined): Promise<string | null> {
  for (const token of cookieHeader ? sessionTokens(cookieHeader) : []) {
    try {
      const payload = await decode({ token, secret: getConfig().authSecret });
      if (typeof payload?.userId === "string") return payload.userId;
    } catch {
      // Not a session this server issued (another secret, tampered, expired): no one is signed in by it.
    }
  }
  return null;
}
