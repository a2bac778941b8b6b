import { isLoopbackHost } from "@/lib/config";

type HeaderSource = { get(name: string): string | null };

function hostnameOf(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return null;
  }
}

/** True when the request was addressed to a loopback name: neither Host nor a proxy's X-Forwarded-Host names anything else. */
export function isLoopbackRequest(headers: HeaderSource): boolean {
  const hosts = [headers.get("host"), headers.get("x-forwarded-host")].filter((value): value is string => Boolean(value));
  return hosts.length > 0 && hosts.every((host) => host.split(",").every((one) => isLoopbackHost(hostnameOf(one.trim()) ?? "")));
}

/** The same check over next-auth's plain header object. */
export function isLoopbackHeaderRecord(headers: Record<string, unknown> | undefined): boolean {
  return isLoopbackRequest({ get: (name) => (typeof headers?.[name] === "string" ? (headers[name] as string) : null) });
}
