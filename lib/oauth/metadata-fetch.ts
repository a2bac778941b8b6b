import { lookup } from "node:dns/promises";
import { BlockList, connect as netConnect, isIP, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";

/** Addresses no Client ID Metadata Document is fetched from, and no webhook delivered to: this host, private networks, link-local, documentation, multicast. */
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24],
  ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) NOT_PUBLIC_V4.addSubnet(network, prefix, "ipv4");
// IPv4-mapped, -compatible, NAT64 and 6to4 addresses can all carry a private IPv4 address: refused whole.
for (const [network, prefix] of [
  ["::", 96], ["::ffff:0:0", 96], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32],
  ["2002::", 16], ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8],
] as const) NOT_PUBLIC_V6.addSubnet(network, prefix, "ipv6");

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC_V4.check(address, "ipv4");
  return family === 6 && !NOT_PUBLIC_V6.check(address, "ipv6");
}

/** This machine's own addresses, 127.0.0.0/8 and ::1 (not their IPv4-mapped forms). */
export function isLoopbackAddress(address: string): boolean {
  return isIP(address) === 4 ? address.startsWith("127.") : address === "::1";
}

/**
 * The address to connect to for `hostname`, once every address it resolves to is checked; throws otherwise.
 * `allowLoopback`: this machine's loopback addresses pass too (webhooks on a loopback PUBLIC_URL).
 */
export async function checkedAddress(hostname: string, allowLoopback = false): Promise<string> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  const refused = addresses.find((address) => !isPublicAddress(address) && !(allowLoopback && isLoopbackAddress(address)));
  if (refused !== undefined || addresses.length === 0) throw new Error(`${host} resolves to ${refused ?? "nothing"}, not a public address`);
  return addresses[0]!;
}

type ConnectOptions = { hostname: string; protocol: string; port: string };
type ConnectCallback = (error: Error | null, socket: Socket | null) => void;

/**
 * undici's connector, with the name resolved and checked first and the socket opened to the checked
 * address, so a private or loopback listener never sees a connection (nor a rebinding DNS answer a second one).
 */
function connectToCheckedAddress(allowLoopback: boolean, options: ConnectOptions, callback: ConnectCallback): void {
  const tls = options.protocol === "https:";
  const hostname = options.hostname.replace(/^\[|\]$/g, "");
  checkedAddress(hostname, allowLoopback).then(
    (address) => {
      const port = Number(options.port) || (tls ? 443 : 80);
      const servername = isIP(hostname) ? undefined : hostname;
      const socket = tls ? tlsConnect({ host: address, port, servername, ALPNProtocols: ["http/1.1"] }) : netConnect({ host: address, port });
      const failed = (error: Error) => callback(error, null);
      socket.once("error", failed).once(tls ? "secureConnect" : "connect", () => {
        socket.off("error", failed);
        callback(null, socket);
      });
    },
    (error: Error) => callback(error, null),
  );
}

type AgentConstructor = new (options: { connect: (options: ConnectOptions, callback: ConnectCallback) => void }) => object;
const DISPATCHER_KEYS = { public: Symbol.for("htmldrop.metadataDispatcher"), loopback: Symbol.for("htmldrop.loopbackDispatcher") };
type DispatcherHolder = Record<symbol, object | undefined>;

/**
 * A dispatcher for Node's own fetch, built from the class of its global one (as oidc-provider's guard is).
 * With `allowLoopback`, this machine's loopback addresses are reached too (never private or link-local ones).
 */
export function publicOnlyDispatcher(allowLoopback = false): object {
  const holder = globalThis as DispatcherHolder;
  const key = allowLoopback ? DISPATCHER_KEYS.loopback : DISPATCHER_KEYS.public;
  if (!holder[key]) {
    void Response; // Node loads its fetch implementation, and the global dispatcher, on first use.
    const global = globalThis as Record<symbol, { constructor: AgentConstructor } | undefined>;
    const Agent = (global[Symbol.for("undici.globalDispatcher.2")] ?? global[Symbol.for("undici.globalDispatcher.1")])!.constructor;
    holder[key] = new Agent({ connect: (options, callback) => connectToCheckedAddress(allowLoopback, options, callback) });
  }
  return holder[key];
}
