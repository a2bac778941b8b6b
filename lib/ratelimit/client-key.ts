import type { IncomingHttpHeaders } from "node:http";
import { type BlockList, isIP, isIPv6 } from "node:net";
import { isLoopbackHost, type TrustProxy } from "@/lib/config";

type HeaderSource = { get(name: string): string | null };

/** server.ts writes the client's address here on every request, overwriting whatever a client sent. */
export const CLIENT_ADDRESS_HEADER = "x-htmldrop-client";
/** server.ts writes "1" here when the client is on this machine, "0" otherwise; never taken from a client. */
export const LOCAL_CLIENT_HEADER = "x-htmldrop-local-client";

const PROXY_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip"];

export function isLoopbackAddress(address: string): boolean {
  return isLoopbackHost(address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, ""));
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

function isTrustedProxy(address: string, proxies: BlockList): boolean {
  const unmapped = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const family = isIP(unmapped);
  return family !== 0 && proxies.check(unmapped, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Who sent a request, as server.ts sees it. X-Forwarded-For is believed only as far as TRUST_PROXY
 * says (see TrustProxy): from the socket's peer back through the entries the proxies appended, right to
 * left, since the entries further left are whatever the client wrote. A client is local when the address
 * reached is loopback and, if no entry was believed, nothing says the request was relayed: a proxy on
 * this machine would otherwise make every visitor look local.
 */
export function describeClient(socketAddress: string | undefined, headers: IncomingHttpHeaders, trust: TrustProxy): { address: string; local: boolean } {
  const entries = trust.kind === "none" ? [] : (headerText(headers["x-forwarded-for"])?.split(",").map((entry) => entry.trim()).filter(Boolean) ?? []);
  let address = socketAddress ?? "unknown";
  let believed = 0;
  while (believed < entries.length && (trust.kind === "hops" ? believed < trust.hops : trust.kind === "addresses" && isTrustedProxy(address, trust.proxies))) {
    believed += 1;
    address = entries[entries.length - believed]!;
  }
  if (believed > 0) return { address, local: isLoopbackAddress(address) };
  const relayed = PROXY_HEADERS.some((name) => headers[name] !== undefined);
  return { address, local: isLoopbackAddress(address) && !relayed };
}

/** The /64 network of an IPv6 address, written as its first four groups: `2001:db8:0:7::/64`. */
function ipv6Network(address: string): string {
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":").flatMap((group) => (group.includes(".") ? ["0", "0"] : [group])));
  const [head = "", tail] = address.split("%")[0]!.split("::");
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(":")}::/64`;
}

/**
 * Whose per-client budget a request spends: what server.ts recorded, or on Vercel the platform's
 * x-real-ip. An IPv6 client is keyed by its /64, the block one subscriber or host usually holds:
 * keyed per address, it could use a fresh budget (and add a counter row) with every request.
 */
export function clientKeyFromHeaders(headers: HeaderSource): string {
  const address = (process.env.VERCEL ? headers.get("x-real-ip") : headers.get(CLIENT_ADDRESS_HEADER))?.trim().toLowerCase();
  if (!address) return "unknown";
  const mappedIPv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mappedIPv4) return mappedIPv4;
  return (isIPv6(address) ? ipv6Network(address) : address).slice(0, 64);
}
