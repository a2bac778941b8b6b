import { isLoopbackHost } from "@/lib/config";
import { LOCAL_CLIENT_HEADER } from "@/lib/ratelimit/client-key";

type HeaderSource = { get(name: string): string | null };

function hostnameOf(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return null;
  }
}

/**
 * True when the request comes from this machine and was addressed to a loopback name. Host alone is not
 * enough: any client can write it, so server.ts's record of the connection must agree (on Vercel,
 * where server.ts does not run, no request is local).
 */
export function isLoopbackRequest(headers: HeaderSource): boolean {
  const hosts = [headers.get("host"), headers.get("x-forwarded-host")].filter((value): value is string => Boolean(value));
  const addressedToLoopback = hosts.length > 0 && hosts.every((host) => host.split(",").every((one) => isLoopbackHost(hostnameOf(one.trim()) ?? "")));
  return addressedToLoopback && headers.get(LOCAL_CLIENT_HEADER) === "1";
}

/** The same check over next-auth's plain header object. */
export function isLoopbackHeaderRecord(headers: Record<string, unknown> | undefined): boolean {
  return isLoopbackRequest({ get: (name) => (typeof headers?.[name] === "string" ? (headers[name] as string) : null) });
}
