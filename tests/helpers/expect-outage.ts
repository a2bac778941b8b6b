import { expect } from "vitest";
import type { ApiResult } from "./app";

/** A dependency outage's answer: 503 service_unavailable with Retry-After, in the Error shape. */
export function expect503(res: ApiResult): void {
  expect(res.status).toBe(503);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.body.error.code).toBe("service_unavailable");
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.body.error.details.retry_after_seconds).toBe(retryAfter);
}
