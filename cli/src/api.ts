// The one way the command talks to a server: JSON over fetch, the server's Error body turned into a
// CliError, and retries only where a repeat cannot do anything twice (reads, and a POST that carries an
// Idempotency-Key, which the server answers with its first response).
import { setTimeout as sleep } from "node:timers/promises";
import packageJson from "../package.json";
import { resolveTarget } from "./config";
import { CliError, EXIT, exitCodeForStatus } from "./errors";
import { uploadProgress } from "./output";

const ATTEMPTS = 3;
const RETRY_AFTER_CAP_SECONDS = 10;
/** The server gives a whole request 120 s; a little more here so its own answer arrives first. */
const REQUEST_TIMEOUT_MS = 130_000;
const PROGRESS_THRESHOLD_BYTES = 1024 * 1024;
const UPLOAD_CHUNK_BYTES = 64 * 1024;

const USER_AGENT = `htmldrop-client/${packageJson.version} node/${process.versions.node}`;

export type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  query?: URLSearchParams;
  body?: unknown;
  idempotencyKey?: string;
  /** Names the upload in the progress line shown for bodies over a megabyte. */
  uploadLabel?: string;
};

/** A client for the server and token this command uses (config.ts says which). */
export function connect(): Client {
  const target = resolveTarget();
  return new Client(target.url, target.token);
}

type ErrorBody = { error?: { code?: unknown; message?: unknown } };

export class Client {
  constructor(
    readonly url: string,
    private readonly token: string | null,
  ) {}

  async json<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(path, options, "application/json");
    return (response.status === 204 ? undefined : JSON.parse(await response.text())) as T;
  }

  async text(path: string, options: RequestOptions = {}): Promise<string> {
    return (await this.send(path, options, "text/plain")).text();
  }

  private async send(path: string, options: RequestOptions, accept: string): Promise<Response> {
    const method = options.method ?? "GET";
    const retryable = method === "GET" || options.idempotencyKey !== undefined;
    const target = `${this.url}${path}${options.query?.size ? `?${options.query}` : ""}`;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { accept, "user-agent": USER_AGENT };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;

    for (let attempt = 1; ; attempt += 1) {
      const last = !retryable || attempt === ATTEMPTS;
      let response: Response;
      try {
        const init: StreamingRequestInit = {
          method,
          headers,
          body: body === undefined ? undefined : requestBody(body, options.uploadLabel),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          duplex: "half",
        };
        response = await fetch(target, init);
      } catch (error) {
        if (last) throw unreachable(this.url, error);
        await sleep(attempt * 500);
        continue;
      }
      if (response.ok) return response;
      if (response.status === 503 && !last) {
        await response.arrayBuffer();
        await sleep(retryDelayMs(response.headers.get("retry-after"), attempt));
        continue;
      }
      throw await errorFrom(response);
    }
  }
}

/** fetch takes a stream only with `duplex`, which the DOM's RequestInit does not declare. */
type StreamingRequestInit = RequestInit & { duplex: "half" };

/** A large body goes out in chunks, each counted on the progress line as fetch takes it. */
function requestBody(json: string, label: string | undefined): BodyInit {
  const body = Buffer.from(json);
  if (body.length <= PROGRESS_THRESHOLD_BYTES) return json;
  const progress = uploadProgress(label ?? "request", body.length);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) {
        progress.done();
        controller.close();
        return;
      }
      const chunk = body.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
      offset += chunk.length;
      progress.update(offset);
      controller.enqueue(chunk);
    },
  });
}

function retryDelayMs(header: string | null, attempt: number): number {
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, RETRY_AFTER_CAP_SECONDS) * 1000;
  return attempt * 1000;
}

function unreachable(url: string, error: unknown): CliError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === "TimeoutError") return new CliError(`${url} did not answer within ${REQUEST_TIMEOUT_MS / 1000} seconds.`, EXIT.unavailable);
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new CliError(`Cannot reach ${url} (${reason}).`, EXIT.unavailable);
}

async function errorFrom(response: Response): Promise<CliError> {
  const text = await response.text();
  let parsed: ErrorBody | null = null;
  try {
    parsed = JSON.parse(text) as ErrorBody;
  } catch {
    // Not the Error shape: a proxy's page, or not an htmldrop server at all.
  }
  const error = parsed?.error;
  const exitCode = exitCodeForStatus(response.status);
  if (error && typeof error.message === "string") return new CliError(error.message, exitCode, typeof error.code === "string" ? error.code : undefined);
  return new CliError(`The server answered ${response.status} ${response.statusText} without an htmldrop error; is the URL an htmldrop server?`, exitCode);
}
