import type { IncomingHttpHeaders } from "node:http";
import { isIPv6 } from "node:net";
import { isLoopbackHost } from "@/lib/config";

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

/**
 * Who sent a request, as server.ts sees it. X-Forwarded-For is believed only when the operator declares
 * a proxy in front (TRUST_PROXY=true), and then only its last entry: the one the proxy appended, where
 * the earlier ones are whatever the client wrote. A client is local when its address is loopback and,
 * without a declared proxy, nothing says the request was relayed: a proxy on this machine would
 * otherwise make every visitor look local.
 */
export function describeClient(socketAddress: string | undefined, headers: IncomingHttpHeaders, trustProxy: boolean): { address: string; local: boolean } {
  const forwarded = trustProxy ? headerText(headers["x-forwarded-for"])?.split(",").at(-1)?.trim() : undefined;
  if (forwarded) return { address: forwarded, local: isLoopbackAddress(forwarded) };
  const address = socketAddress ?? "unknown";
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
