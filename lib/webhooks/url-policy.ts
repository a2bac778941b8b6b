// Where webhooks may be sent, checked as client metadata URLs are (lib/oauth/metadata-fetch.ts): https,
// and only public addresses, after DNS resolution and on every redirect. With a loopback PUBLIC_URL (your
// own machine, tests) this machine's loopback addresses are allowed too, over http as well; never otherwise.
import { isIP } from "node:net";
import { getConfig, isLoopbackHost } from "@/lib/config";
import { isHtmldropOrigin } from "@/lib/oauth/client-policy";
import { checkedAddress, isLoopbackAddress, isPublicAddress } from "@/lib/oauth/metadata-fetch";

export function loopbackAllowed(): boolean {
  return !getConfig().production;
}

/** What is wrong with `raw` as a delivery target without asking DNS, or null: the check of every hop. */
export function endpointUrlProblem(raw: string): string | null {
  const url = URL.parse(raw);
  if (!url || !["http:", "https:"].includes(url.protocol)) return "url must be an http(s) URL";
  if (url.username || url.password) return "url must not carry a user name or password";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = isLoopbackHost(host) || (isIP(host) !== 0 && isLoopbackAddress(host));
  if (loopback && !loopbackAllowed()) return "url must not point at this machine (loopback)";
  if (url.protocol === "http:" && !(loopback && loopbackAllowed())) return "url must use https";
  if (isIP(host) !== 0 && !isPublicAddress(host) && !(loopbackAllowed() && isLoopbackAddress(host))) {
    return `url must not point at a private, loopback or link-local address (${host})`;
  }
  if (isHtmldropOrigin(url)) return "url must not point at htmldrop itself";
  return null;
}

/**
 * The registration's check: the hop check, then the name's current addresses (a name that does not
 * resolve yet is accepted; each delivery checks again before it connects).
 */
export async function registrationUrlProblem(raw: string): Promise<string | null> {
  const problem = endpointUrlProblem(raw);
  if (problem) return problem;
  try {
    await checkedAddress(new URL(raw).hostname, loopbackAllowed());
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    return message.endsWith("not a public address") ? `url must not point at a private, loopback or link-local address: ${message}` : null;
  }
}
