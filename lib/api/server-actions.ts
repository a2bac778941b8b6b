import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { SERVER_ACTION_BODY_MAX_BYTES, SPEC_LIMITS } from "@/lib/config";
import { refusal, type Answer } from "./unroutable";

/**
 * Every server action of this app is a form: the browser posts it as multipart/form-data, with the
 * action's id in a `Next-Action` header (or, without JavaScript, in the form's fields). Next.js decodes
 * whatever body such a request carries and answers a 500 when it cannot; a hand-made request is a
 * client's mistake, so these make it a 400 in the Error shape.
 */
function isPageForm(method: string, url: string): boolean {
  return method === "POST" && !url.startsWith("/api/") && !url.startsWith("/mcp");
}

function isMultipart(headers: IncomingHttpHeaders): boolean {
  return (headers["content-type"] ?? "").toLowerCase().startsWith("multipart/form-data");
}

function unreadable(): Answer {
  return refusal(400, "This form submission could not be read; reload the page and submit the form again.");
}

/** A form larger than any this app takes; Next would fail on it with a bare 500, after reading it all. */
function tooLarge(): Answer {
  const message = `This form is larger than the ${SERVER_ACTION_BODY_MAX_BYTES} bytes a form may send: a drop's HTML or a pattern's template takes at most ${SPEC_LIMITS.htmlMaxBytes} bytes (2 MiB). Make the document smaller and submit again.`;
  return refusal(413, message, { details: { max_bytes: SERVER_ACTION_BODY_MAX_BYTES } });
}

/** busboy, which Next decodes a form with, throws on a multipart type without a boundary. */
function hasBoundary(headers: IncomingHttpHeaders): boolean {
  return /;\s*boundary=[^;\s]/i.test(headers["content-type"] ?? "");
}

/** The host Next takes an action to be sent to: its first X-Forwarded-Host, or else its Host. */
function actionHost(headers: IncomingHttpHeaders): string {
  return String(headers["x-forwarded-host"] ?? "").split(",")[0]!.trim() || (headers.host ?? "");
}

/**
 * Next's own check against cross-site actions (with no `serverActions.allowedOrigins`): an Origin
 * must name the host the request was sent to. Next refuses the others by throwing, which logs an
 * error, or with a TypeError when Origin is no URL.
 */
function isCrossSite(headers: IncomingHttpHeaders): boolean {
  const origin = headers.origin;
  if (origin === undefined) return false;
  const originHost = origin === "null" ? "null" : URL.canParse(origin) ? new URL(origin).host : null;
  return originHost !== actionHost(headers);
}

function crossSite(): Answer {
  return refusal(403, "This form was sent from another site: its Origin header does not name this server. Submit it from this app's own pages.", { code: "forbidden" });
}

/** A request Next would take for a server action that no page of this app could have sent, refused before Next reads it. */
export function actionRefusal(method: string, url: string, headers: IncomingHttpHeaders): Answer | null {
  if (!isPageForm(method, url)) return null;
  // Next takes a urlencoded POST to a page for a form action too; sent as a router fetch (RSC: 1),
  // which no page of this app does, it then fails with a 500 expecting a flight response.
  if (headers.rsc !== undefined && (headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) return unreadable();
  const isAction = headers["next-action"] !== undefined;
  if (!isAction && !isMultipart(headers)) return null;
  if (isCrossSite(headers)) return crossSite();
  // An action for another page is forwarded to it at this host; with none (an empty Host) Next fails with a 500.
  if (actionHost(headers) === "") return unreadable();
  if (!isMultipart(headers) || !hasBoundary(headers)) return unreadable();
  if (Number(headers["content-length"]) > SERVER_ACTION_BODY_MAX_BYTES) return tooLarge();
  return null;
}

/**
 * Turns Next's 500 for a form body it could not decode into a 400 Error, dropping the body Next writes.
 * An action of another page is forwarded to that page, through this server: when it refuses the body
 * there, Next answers here with `{}` as JSON (and this page's status), which an action never answers.
 */
export function refuseUndecodableAction(method: string, url: string, headers: IncomingHttpHeaders, response: ServerResponse): void {
  const isAction = headers["next-action"] !== undefined;
  if (!isPageForm(method, url) || (!isAction && !isMultipart(headers))) return;
  const failed = () => response.statusCode >= 500 || (isAction && String(response.getHeader("content-type") ?? "").startsWith("application/json"));
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  let refused = false;
  const refuseIfFailed = (): boolean => {
    if (refused) return true;
    if (response.headersSent || !failed()) return false;
    refused = true;
    for (const name of response.getHeaderNames()) response.removeHeader(name);
    const answer = unreadable();
    writeHead(answer.status, answer.headers);
    end(answer.body);
    return true;
  };
  response.writeHead = ((status: number, ...rest: unknown[]) => {
    if (response.headersSent) return writeHead(status, ...rest);
    response.statusCode = status;
    return refuseIfFailed() ? response : writeHead(status, ...rest);
  }) as ServerResponse["writeHead"];
  response.write = ((...args: unknown[]) => (refuseIfFailed() ? true : write(...args))) as ServerResponse["write"];
  response.end = ((...args: unknown[]) => (refuseIfFailed() ? response : end(...args))) as ServerResponse["end"];
}
