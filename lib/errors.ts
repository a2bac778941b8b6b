/** The closed set of error codes of the interface specification, with their HTTP statuses. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_arg: 400,
  invalid_slug: 400,
  title_required: 400,
  title_too_long: 400,
  description_too_long: 400,
  html_required: 400,
  html_too_large: 400,
  context_too_large: 400,
  passcode_required: 400,
  passcode_too_short: 400,
  metadata_only_on_patch: 400,
  token_required: 401,
  unauthorized: 401,
  invalid_token: 401,
  forbidden: 403,
  not_found: 404,
  version_not_found: 404,
  version_conflict: 409,
  last_version_cannot_be_deleted: 409,
  rate_limited: 429,
  daily_quota_exceeded: 429,
  quota_exceeded: 429,
  version_limit_reached: 429,
  // Not in the spec's set: two versions differ too much to diff within lib/drops/diff.ts's bounds.
  diff_too_large: 422,
  // Not in the spec's set: a pattern's Markdown or front matter is not a pattern, or it or its template is too large.
  invalid_pattern: 400,
  pattern_too_large: 400,
  internal_error: 500,
  // Not in the spec's set: a dependency (database, rate-limit store) is down; always with Retry-After.
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorDetails = Record<string, unknown>;

/** The one error type services throw; adapters turn it into the spec's Error body. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }

  get retryAfterSeconds(): number | undefined {
    const value = this.details?.retry_after_seconds;
    return typeof value === "number" ? value : undefined;
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** A dependency outage: the request was not carried out, and may be repeated after `retryAfterSeconds`. */
export function serviceUnavailable(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError("service_unavailable", message, { retry_after_seconds: retryAfterSeconds });
}

export type ErrorBody = { error: { code: string; message: string; details?: ErrorDetails } };

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError || (error instanceof Error && error.name === "ApiError" && "code" in error && "status" in error);
}
