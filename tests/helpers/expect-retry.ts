// Answers that tell a client to come back later: the status, the code, and Retry-After equal to
// details.retry_after_seconds, in the Error shape.
import { expect } from "vitest";

type Answer = { status: number; headers: Headers; body: any };

function expectRetryLater(res: Answer, status: number, code: string): number {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.body.error.code).toBe(code);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.body.error.details.retry_after_seconds).toBe(retryAfter);
  return retryAfter;
}

/** A dependency outage's answer: 503 service_unavailable. */
export function expect503(res: Answer): void {
  expectRetryLater(res, 503, "service_unavailable");
}

/** A spent limit's answer: 429 with `code`; returns its Retry-After in seconds. */
export function expect429(res: Answer, code: string): number {
  return expectRetryLater(res, 429, code);
}
