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

/** A `Next-Action` request whose body no form of this app could have sent, refused before Next decodes it. */
export function actionRefusal(method: string, url: string, headers: IncomingHttpHeaders): Answer | null {
  if (!isPageForm(method, url)) return null;
  const isAction = headers["next-action"] !== undefined;
  if (isAction && !isMultipart(headers)) return unreadable();
  if ((isAction || isMultipart(headers)) && Number(headers["content-length"]) > SERVER_ACTION_BODY_MAX_BYTES) return tooLarge();
  return null;
}

/** Turns Next's 500 for a form body it could not decode into a 400 Error, dropping the body Next writes. */
export function refuseUndecodableAction(method: string, url: string, headers: IncomingHttpHeaders, response: ServerResponse): void {
  if (!isPageForm(method, url) || (headers["next-action"] === undefined && !isMultipart(headers))) return;
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  let refused = false;
  const refuseIfFailed = (): boolean => {
    if (refused) return true;
    if (response.headersSent || response.statusCode < 500) return false;
    refused = true;
    for (const name of response.getHeaderNames()) response.removeHeader(name);
    const answer = unreadable();
    writeHead(answer.status, answer.headers);
    end(answer.body);
    return true;
  };
  response.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status < 500 || response.headersSent) return writeHead(status, ...rest);
    response.statusCode = status;
    refuseIfFailed();
    return response;
  }) as ServerResponse["writeHead"];
  response.write = ((...args: unknown[]) => (refuseIfFailed() ? true : write(...args))) as ServerResponse["write"];
  response.end = ((...args: unknown[]) => (refuseIfFailed() ? response : end(...args))) as ServerResponse["end"];
}
