import { getConfig } from "@/lib/config";

type HeaderSource = { get(name: string): string | null };

/** server.ts writes the socket's address here on every request, overwriting whatever a client sent. */
export const CLIENT_ADDRESS_HEADER = "x-htmldrop-client";

/**
 * Whose per-client budget a request spends. X-Forwarded-For is believed only when the operator
 * declares a proxy in front (TRUST_PROXY=true), since any client can send it; on Vercel, where
 * server.ts does not run, the platform's x-real-ip.
 */
export function clientKeyFromHeaders(headers: HeaderSource, trustProxy: boolean = getConfig().trustProxy): string {
  const forwarded = trustProxy ? headers.get("x-forwarded-for")?.split(",")[0]?.trim() : undefined;
  const address = process.env.VERCEL ? headers.get("x-real-ip") : forwarded || headers.get(CLIENT_ADDRESS_HEADER);
  return (address || "unknown").slice(0, 64).toLowerCase();
}
