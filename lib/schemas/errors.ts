import { z } from "zod";
import { ApiError, ERROR_STATUS, type ErrorCode } from "@/lib/errors";

export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).describe("Machine-readable; switch on this."),
    message: z.string().describe("Human-readable."),
    details: z.record(z.string(), z.unknown()).optional().describe("Limits, fields, retry_after_seconds, max_bytes and similar."),
  }),
});

/** Fields whose absence has a code of its own in the spec. */
const REQUIRED_CODES: Record<string, ErrorCode> = {
  title: "title_required",
  html: "html_required",
  passcode: "passcode_required",
};

type Field = { field: string; message: string };

function fieldName(path: readonly PropertyKey[], root: string): string {
  return path.map(String).join(".") || root;
}

/**
 * Converts a zod failure into the spec's error. The first issue that has a code of its own in the
 * spec wins; otherwise every problem is reported as invalid_arg with details.fields.
 */
export function apiErrorFromZod(error: z.ZodError, input: unknown, root = "(body)"): ApiError {
  const generic: Field[] = [];
  for (const issue of error.issues) {
    const top = issue.path[0];
    const params = issue.code === "custom" ? (issue.params as { apiCode?: ErrorCode; details?: Record<string, unknown> } | undefined) : undefined;
    if (params?.apiCode) return new ApiError(params.apiCode, issue.message, params.details);
    // null counts as absent: {"title": null} lacks a title as much as {} does.
    const absent = typeof top === "string" && issue.path.length === 1 && input !== null && typeof input === "object" && (input as Record<string, unknown>)[top] == null;
    if (issue.code === "invalid_type" && absent && REQUIRED_CODES[top]) {
      return new ApiError(REQUIRED_CODES[top], `${top} is required`);
    }
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) generic.push({ field: fieldName([...issue.path, key], root), message: "unknown field" });
    } else {
      generic.push({ field: fieldName(issue.path, root), message: issue.message });
    }
  }
  const summary = generic.map((field) => `${field.field}: ${field.message}`).join("; ");
  return new ApiError("invalid_arg", `Invalid arguments: ${summary}`, { fields: generic });
}

/**
 * Parses input with a shared schema, throwing the spec's error on failure. `field` names a lone value
 * (a path parameter) in details.fields; a body's fields are named by their path.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, field?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw apiErrorFromZod(result.error, input, field);
  return result.data;
}
