// What every fuzz response must satisfy, and the grouped report of those that did not.
import { ERROR_STATUS } from "@/lib/errors";
import type { FuzzCase } from "./mutate";
import type { WireRequest, WireResult } from "./raw-http";

export type Rule = "answer" | "error-shape" | "json-rpc";
export type Problem = { rule: Rule; problem: string };
/** What a report needs of one request, small enough to keep for 100,000 of them. */
export type Outcome = {
  index: number;
  pattern: string;
  mutations: string[];
  method: string;
  problems: Problem[];
  ms: number;
  /** Excerpts, kept only when there are problems. */
  target: string;
  requestBody: string;
  answer: string;
  /** The problem's cause as far as the answer shows it: content type and the start of the body. */
  answerHint: string;
};

/**
 * The path the request line names, whatever form its target takes, with dot segments resolved (also
 * percent-encoded ones) as the server resolves them: `/api/../x` is the page `/x`, not an API path.
 */
function requestPath(request: FuzzCase, wire: WireRequest): string {
  if (wire.target === "*") return request.pattern;
  const path = wire.target.replace(/^https?:\/\/[^/]*/, "").split(/[?#]/)[0]!;
  const resolved: string[] = [];
  for (const segment of path.split("/").slice(1)) {
    const plain = segment.replace(/%2e/gi, ".");
    if (plain === "..") resolved.pop();
    else if (plain !== ".") resolved.push(segment);
  }
  return `/${resolved.join("/")}`;
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `{error: {code, message, details?}}` with a code of the spec; null when it is. */
export function errorShapeProblem(value: unknown): string | null {
  if (!isPlainObject(value) || !isPlainObject(value.error) || Object.keys(value).length !== 1) return "body is not the Error shape";
  const { code, message, details } = value.error;
  if (typeof code !== "string" || typeof message !== "string") return "body is not the Error shape (code, message)";
  if (details !== undefined && !isPlainObject(details)) return "Error details is not an object";
  if (!(code in ERROR_STATUS)) return `unknown error code ${code}`;
  return null;
}

/** RFC 6749's `{error, error_description?}`, which OAuth clients parse (and RFC 7591's alike); null when it is. */
function oauthErrorProblem(value: unknown): string | null {
  if (!isPlainObject(value) || typeof value.error !== "string" || !/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/.test(value.error)) return "body is not OAuth's error shape";
  if (value.error_description !== undefined && typeof value.error_description !== "string") return "OAuth error_description is not a string";
  return null;
}

function jsonRpcProblem(message: unknown): string | null {
  if (!isPlainObject(message) || message.jsonrpc !== "2.0") return "not a JSON-RPC 2.0 message";
  if (!("id" in message) || !["string", "number"].includes(typeof message.id) && message.id !== null) return "JSON-RPC response without a valid id";
  if (("result" in message) === ("error" in message)) return "JSON-RPC response needs exactly one of result and error";
  if ("error" in message) {
    const error = message.error;
    if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== "string") return "malformed JSON-RPC error object";
    if (error.code === -32603) return "JSON-RPC -32603 internal error";
    return null;
  }
  if (!isPlainObject(message.result)) return "JSON-RPC result is not an object";
  const { isError, content } = message.result;
  if (isError === true) {
    const text = Array.isArray(content) && isPlainObject(content[0]) ? content[0].text : undefined;
    const parsed = typeof text === "string" ? parseJson(Buffer.from(text)) : { ok: false as const };
    const problem = parsed.ok ? errorShapeProblem(parsed.value) : "tool error text is not JSON";
    if (problem) return `tool error result: ${problem}`;
    if (parsed.ok && (parsed.value as { error: { code: string } }).error.code === "internal_error") return "tool error result: internal_error";
  }
  return null;
}

function checkOutcome(request: FuzzCase, wire: WireRequest, result: WireResult): Problem[] {
  if ("error" in result) return [{ rule: "answer", problem: `no HTTP response (${result.error})` }];
  const problems: Problem[] = [];
  const { status, headers, body } = result;
  const contentType = headers["content-type"] ?? "";
  const isJson = /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
  const path = requestPath(request, wire);
  const api = isUnder(path, "/api") || isUnder(path, "/mcp");
  // The authorization server's endpoints speak OAuth (its consent page is the app's); what the HTTP layer
  // refuses before any endpoint (a malformed path or framing, a method none takes) keeps the app's shape.
  const oauth = isUnder(path, "/oauth") && !isUnder(path, "/oauth/consent");
  // HEAD's answer and a 304 (the client's copy is current) carry no body, whatever their content type.
  const hasBody = wire.method !== "HEAD" && status !== 304;
  const parsed = isJson && hasBody ? parseJson(body) : null;

  if (status >= 500) {
    const code = parsed?.ok && isPlainObject(parsed.value) && isPlainObject(parsed.value.error) ? ` ${String(parsed.value.error.code)}` : "";
    problems.push({ rule: "answer", problem: `${status}${code}` });
  }
  if (status >= 400 && status < 500 && (api || isJson)) {
    if (!isJson) problems.push({ rule: "error-shape", problem: `${status} without a JSON content type (${contentType.split(";")[0] || "none"})` });
    else if (parsed && !parsed.ok) problems.push({ rule: "error-shape", problem: `${status} body is not JSON` });
    else if (parsed?.ok) {
      const problem = oauth && oauthErrorProblem(parsed.value) === null ? null : errorShapeProblem(parsed.value);
      if (problem) problems.push({ rule: "error-shape", problem: `${status} ${problem}` });
    }
  }
  if (status < 400 && api && isJson && parsed && !parsed.ok) problems.push({ rule: "error-shape", problem: `${status} JSON body does not parse` });
  if (isUnder(path, "/mcp") && status === 200 && wire.method === "POST") {
    if (!isJson) problems.push({ rule: "json-rpc", problem: `200 with content type ${contentType || "none"}` });
    else if (parsed?.ok) {
      const messages = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
      for (const problem of new Set(messages.map(jsonRpcProblem))) if (problem) problems.push({ rule: "json-rpc", problem });
    }
  }
  return problems;
}

function excerpt(text: string, max: number): string {
  const flat = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return flat.slice(1, -1);
}

function answerHint(result: WireResult): string {
  if ("error" in result) return "";
  const contentType = result.headers["content-type"]?.split(";")[0] ?? "no content type";
  const text = result.body.subarray(0, 300).toString("utf8");
  const code = /"code":\s*("[^"]*"|-?\d+)/.exec(text)?.[1];
  const hint = (code ? `code ${code}` : text.slice(0, 50)).replace(/[0-9a-f]{8,}/gi, "…").replace(/\d+/g, "N").replace(/\s+/g, " ");
  return `${contentType}${hint ? ` "${hint}"` : ""}`;
}

export function summarize(index: number, request: FuzzCase, wire: WireRequest, result: WireResult, ms: number): Outcome {
  const problems = checkOutcome(request, wire, result);
  const base = { index, pattern: request.pattern, mutations: request.mutations, method: wire.method, problems, ms };
  if (problems.length === 0) return { ...base, target: "", requestBody: "", answer: "", answerHint: "" };
  const answer = "error" in result ? result.error : `${result.status} ${result.headers["content-type"] ?? "(no content type)"} ${excerpt(result.body.subarray(0, 400).toString("utf8"), 140)}`;
  return {
    ...base,
    target: excerpt(wire.target.slice(0, 400), 120),
    requestBody: wire.body?.length ? excerpt(wire.body.subarray(0, 200).toString("utf8"), 100) : "",
    answer,
    answerHint: answerHint(result),
  };
}

/** Mutation labels without the segment index, so the same oddity in any segment counts as one. */
function mutationLabels(outcome: Outcome): string[] {
  return [...new Set(outcome.mutations.map((label) => label.replace(/^path\[\d+\]/, "path")))];
}

function describe(outcome: Outcome): string {
  const body = outcome.requestBody ? ` body ${outcome.requestBody}` : "";
  return `#${outcome.index} ${excerpt(outcome.method, 20)} ${outcome.target}${body} [${outcome.mutations.join(", ") || "none"}] → ${outcome.answer}`;
}

function top(counts: Map<string, number>, limit: number, format: (key: string, count: number) => string): string {
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, limit).map(([key, count]) => format(key, count));
  return shown.join(", ") + (sorted.length > limit ? `, … ${sorted.length - limit} more` : "");
}

/**
 * Failures grouped by what went wrong (problem and answer), biggest first. Each group names the endpoints
 * it hit, the mutations over-represented in it (the likely causes) and the smallest examples.
 */
export function report(outcomes: Outcome[], rule: Rule, examplesPerGroup = 2): string {
  const overall = new Map<string, number>();
  for (const outcome of outcomes) for (const label of mutationLabels(outcome)) overall.set(label, (overall.get(label) ?? 0) + 1);
  const groups = new Map<string, { members: Outcome[]; endpoints: Map<string, number>; mutations: Map<string, number> }>();
  for (const outcome of outcomes) {
    for (const problem of outcome.problems.filter((candidate) => candidate.rule === rule)) {
      const key = outcome.answerHint ? `${problem.problem} — ${outcome.answerHint}` : problem.problem;
      const group = groups.get(key) ?? { members: [] as Outcome[], endpoints: new Map<string, number>(), mutations: new Map<string, number>() };
      group.members.push(outcome);
      const method = /^[A-Za-z-]{1,12}$/.test(outcome.method) ? outcome.method : "(odd method)";
      const endpoint = `${method} ${outcome.pattern}`;
      group.endpoints.set(endpoint, (group.endpoints.get(endpoint) ?? 0) + 1);
      for (const label of mutationLabels(outcome)) group.mutations.set(label, (group.mutations.get(label) ?? 0) + 1);
      groups.set(key, group);
    }
  }
  const lines: string[] = [];
  for (const [key, group] of [...groups].sort((a, b) => b[1].members.length - a[1].members.length)) {
    const size = group.members.length;
    // A label is a likely cause when it is far more common in the group than in the whole run.
    const causes = new Map([...group.mutations].filter(([label, count]) => count / size >= (3 * overall.get(label)!) / outcomes.length));
    const examples = [...group.members].sort((a, b) => a.mutations.length - b.mutations.length).slice(0, examplesPerGroup);
    lines.push(
      `[${size}×] ${key}`,
      `    endpoints: ${top(group.endpoints, 8, (endpoint, count) => `${endpoint} ×${count}`)}`,
      `    likely causes: ${top(causes, 6, (label, count) => `${label} ${count}/${size}`) || "(no mutation stands out; unmutated requests included)"}`,
      ...examples.map((example) => `    e.g. ${describe(example)}`),
    );
  }
  return lines.join("\n");
}
