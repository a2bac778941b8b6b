// One HTTP attempt of a delivery, signed as Standard Webhooks says (the standardwebhooks package). Every
// hop (the URL and each redirect) is checked, and connections go only to checked addresses; the whole
// attempt has a short deadline and at most RESPONSE_CAP bytes of the answer are read.
import { Webhook } from "standardwebhooks";
import { publicOnlyDispatcher } from "@/lib/oauth/metadata-fetch";
import { endpointUrlProblem, loopbackAllowed } from "./url-policy";

export const SEND_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;
const RESPONSE_CAP = 64 * 1024;

export type AttemptResult = { statusCode: number | null; durationMs: number; error: string | null; ok: boolean };

export type Signed = { id: string; body: string; secret: string };

/** Standard Webhooks' three headers; the timestamp is the wall clock, which the receiver checks against its own. */
export function signedHeaders({ id, body, secret }: Signed): Record<string, string> {
  const timestamp = new Date();
  return {
    "content-type": "application/json",
    "user-agent": "htmldrop-webhooks",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, timestamp, body),
  };
}

async function drainCapped(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
    if (read > RESPONSE_CAP) return void (await reader.cancel());
  }
}

export async function sendWebhook(url: string, message: Signed): Promise<AttemptResult> {
  const started = performance.now();
  const finish = (statusCode: number | null, error: string | null): AttemptResult => ({
    statusCode,
    error,
    ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
    durationMs: Math.round(performance.now() - started),
  });
  const signal = AbortSignal.timeout(SEND_TIMEOUT_MS);
  const dispatcher = publicOnlyDispatcher(loopbackAllowed());
  let target = url;
  try {
    for (let hop = 0; ; hop++) {
      const problem = endpointUrlProblem(target);
      if (problem) return finish(null, hop === 0 ? problem : `redirected to a refused URL: ${problem}`);
      const response = await fetch(target, { method: "POST", headers: signedHeaders(message), body: message.body, redirect: "manual", signal, dispatcher } as RequestInit);
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop === MAX_REDIRECTS) return finish(response.status, `more than ${MAX_REDIRECTS} redirects`);
        target = new URL(location, target).href;
        continue;
      }
      await drainCapped(response);
      return finish(response.status, response.ok ? null : `answered ${response.status}`);
    }
  } catch (error) {
    if (signal.aborted) return finish(null, `no answer within ${SEND_TIMEOUT_MS / 1000} s`);
    const cause = (error as { cause?: unknown }).cause;
    const reason = cause instanceof Error ? cause.message : error instanceof Error ? error.message : "the request failed";
    return finish(null, reason.slice(0, 300));
  }
}
