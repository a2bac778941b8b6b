// Mutations of a valid request (body fields, path segments, query, headers, method, protocol) and the
// step that turns the result into bytes on the wire.
import type { WireRequest } from "./raw-http";
import type { Random } from "./random";
import type { Body, FuzzContext, Template } from "./templates";
import { badJsonText, metadataMap, oddJsonValue, oddQuery, oddSegment, oddString } from "./values";

export type FuzzCase = Template & { mutations: string[]; chunked?: boolean; noHost?: boolean; target?: string };

const FIELD_LIMITS: Record<string, number> = { title: 200, description: 500, label: 100, passcode: 4, slug: 12, name: 64 };
const UNKNOWN_FIELDS = ["colour", "Title", "__proto__", "constructor", "", "html ", "metadata.project", "slug", "id"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND", "PURGE", "QUERY", "SEARCH", "LINK", "MKCOL", "CONNECT", "FOO", "get", "M-SEARCH"];

type Container = { holder: Record<string, unknown> | unknown[]; path: string };

/** Every object and array inside a JSON value, with a dotted path for labels. */
function containers(value: unknown, path = "body", found: Container[] = []): Container[] {
  if (value === null || typeof value !== "object") return found;
  found.push({ holder: value as Record<string, unknown>, path });
  for (const [key, child] of Object.entries(value)) containers(child, `${path}.${key}`, found);
  return found;
}

function mutateJson(random: Random, body: unknown): { value: unknown; label: string } {
  const value = structuredClone(body);
  const all = containers(value);
  if (all.length === 0 || random.chance(0.08)) {
    const replaced = oddJsonValue(random);
    return { value: replaced.value, label: `body=${replaced.label}` };
  }
  const { holder, path } = random.pick(all);
  const keys = Object.keys(holder);
  const key = keys.length > 0 ? random.pick(keys) : "x";
  const target = holder as Record<string, unknown>;
  const operation = random.weighted<string>([[2, "delete"], [3, "type"], [4, "string"], [1, "unknown"], [2, "metadata"]]);
  switch (operation) {
    case "delete":
      delete target[key];
      return { value, label: `delete ${path}.${key}` };
    case "type": {
      const odd = oddJsonValue(random, FIELD_LIMITS[key]);
      target[key] = odd.value;
      return { value, label: `${path}.${key}=${odd.label}` };
    }
    case "string": {
      const odd = oddString(random, FIELD_LIMITS[key]);
      target[key] = odd.value;
      return { value, label: `${path}.${key}=str:${odd.label}` };
    }
    case "unknown": {
      const name = random.pick(UNKNOWN_FIELDS);
      // defineProperty: a plain assignment of "__proto__" would set the prototype instead of a key.
      Object.defineProperty(target, name, { value: oddJsonValue(random).value, enumerable: true, configurable: true, writable: true });
      return { value, label: `${path}+unknown:${name}` };
    }
    default: {
      const map = metadataMap(random);
      target[Array.isArray(target) ? key : "metadata"] = map.value;
      return { value, label: `${path}.metadata=${map.label}` };
    }
  }
}

/** Bodies at and beyond the size limits; rare, since each costs megabytes. */
function hugeBody(random: Random): { body: Body; label: string } {
  const choice = random.weighted<string>([[4, "html-limit"], [3, "context-limit"], [1, "over-ceiling"], [3, "auth-64k"]]);
  if (choice === "html-limit") {
    const length = 2_097_152 + random.pick([0, 1]);
    return { body: { kind: "json", value: { title: "big", html: "x".repeat(length) } }, label: `html-bytes-${length}` };
  }
  if (choice === "context-limit") {
    const length = 65_536 + random.pick([0, 1]);
    return { body: { kind: "json", value: { title: "big", html: "<p>x</p>", context: "é".repeat(length / 2) + (length % 2 ? "x" : "") } }, label: `context-bytes-${length}` };
  }
  if (choice === "over-ceiling") return { body: { kind: "raw", bytes: Buffer.alloc(14_000_000, 0x20), label: "14MB-of-spaces" }, label: "body-14MB" };
  const size = random.pick([4096, 4097, 65_536, 65_537]);
  return { body: { kind: "raw", bytes: Buffer.from(`{"label":"${"a".repeat(size - 12)}"}`), label: `json-${size}B` }, label: `body-${size}B` };
}

function authVariant(random: Random, context: FuzzContext): { value: string | null; label: string } {
  const body = context.token.slice(context.token.indexOf("_") + 1);
  return random.pick<{ value: string | null; label: string }>([
    { value: null, label: "none" },
    { value: `bearer ${context.token}`, label: "lower-scheme" },
    { value: `Bearer   ${context.token}\t`, label: "extra-space" },
    { value: `Bearer ${context.otherToken}`, label: "other-account" },
    { value: `Bearer ${context.revokedToken}`, label: "revoked" },
    { value: `Bearer hb_${body}`, label: "wrong-prefix" },
    { value: `Bearer ${body}`, label: "no-prefix" },
    { value: `Bearer ${context.token.slice(0, -1)}`, label: "truncated" },
    { value: `Bearer ${context.token}x`, label: "extended" },
    { value: context.token, label: "no-scheme" },
    { value: "Basic dXNlcjpwYXNz", label: "basic" },
    { value: "Bearer", label: "scheme-only" },
    { value: "", label: "empty" },
    { value: `Bearer hd_${"é".repeat(40)}`, label: "non-ascii" },
    { value: `Bearer ${"a".repeat(8000)}`, label: "long-8k" },
    { value: `Bearer ${context.token}, Bearer ${context.otherToken}`, label: "two-tokens" },
  ]);
}

function oddHeader(random: Random, context: FuzzContext): { header: [string, string]; label: string } {
  const [name, values] = random.pick<[string, string[]]>([
    ["content-type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "multipart/form-data; boundary=", "application/json; charset=utf-16", "application/json;;;", "application/merge-patch+json", "*/*", "garbage", "é"]],
    ["accept", ["", "text/html", "application/json", "text/event-stream", "application/json;q=0, text/event-stream;q=0", "*/*;q=abc", "😀"]],
    ["origin", ["http://evil.example", "null", "::::", "http://127.0.0.1", "http://localhost:1", "file://"]],
    ["if-match", ['"1"', "1", "*", 'W/"1"', '"0"', '"99999999999"', '"1", "2"', '"\u00e9"', "garbage"]],
    ["if-none-match", ["*", '"abc"', 'W/"x", "y"', "garbage"]],
    ["idempotency-key", ["", " ", "k".repeat(256), "é", "key with space", `k-${random.int(1, 20)}`]],
    ["cookie", ["next-auth.session-token=garbage", "next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z", "hd_unlock=garbage", "hd_unlock=9999999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "%zz=%zz", "a".repeat(6000), "next-auth.csrf-token=x%7Cy", context.sessionCookie]],
    ["x-forwarded-for", ["1.2.3.4", "garbage", "::1", "127.0.0.1, 10.0.0.1", "a".repeat(2000)]],
    ["forwarded", ["for=unknown", "for=\"[::1]\";proto=https", "garbage"]],
    ["x-real-ip", ["1.2.3.4", "not-an-ip"]],
    ["host", ["evil.example", "localhost", "[::1]:1", "", "localhost:99999", "[::1", "a".repeat(300), "127.0.0.1:1/../"]],
    ["accept-encoding", ["br", "gzip;q=0", "*", "gzip, deflate, br, zstd", "identity;q=0", "garbage;q=2"]],
    ["range", ["bytes=0-10", "bytes=garbage", "bytes=-1"]],
    ["rsc", ["1"]],
    ["next-router-state-tree", ["garbage", "%5B%22%22%5D", "[]", "%zz"]],
    ["next-router-prefetch", ["1"]],
    ["next-action", ["garbage", "0".repeat(42), ...Object.values(context.actions)]],
    ["next-url", ["/dashboard", "%zz"]],
    ["x-middleware-subrequest", ["middleware:middleware:middleware:middleware:middleware", "proxy:proxy:proxy:proxy:proxy"]],
    ["x-nextjs-data", ["1"]],
    ["mcp-protocol-version", ["garbage", "2025-06-18", "1999-01-01", ""]],
    ["mcp-session-id", ["garbage", "é"]],
    ["x-http-method-override", ["DELETE"]],
    ["content-encoding", ["gzip", "br", "garbage"]],
    ["expect", ["100-continue", "garbage"]],
    ["upgrade", ["websocket", "h2c"]],
    ["x-" + "a".repeat(100), ["é".repeat(100)]],
  ]);
  return { header: [name, random.pick(values)], label: `header ${name}` };
}

function encodeBody(body: Body): { bytes: Buffer; contentType?: string } {
  if (body.kind === "json") return { bytes: Buffer.from(JSON.stringify(body.value) ?? "", "utf8") };
  if (body.kind === "raw") return { bytes: body.bytes };
  if (body.kind === "form") return { bytes: Buffer.from(new URLSearchParams(body.value).toString()), contentType: "application/x-www-form-urlencoded" };
  const boundary = "fuzzboundary7MA4YWxk";
  const parts = Object.entries(body.value).map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { bytes: Buffer.from(`${parts.join("")}--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
}

function setHeader(request: FuzzCase, name: string, value: string | null): void {
  request.headers = request.headers.filter(([existing]) => existing.toLowerCase() !== name);
  if (value !== null) request.headers.push([name, value]);
}

/** Applies one random mutation, returning its label. */
function mutateOnce(random: Random, request: FuzzCase, context: FuzzContext): string {
  const kind = random.weighted<string>([
    [request.body?.kind === "json" ? 10 : 1, "json"],
    [2, "bad-json"],
    [2, "segment"],
    [1, "path-shape"],
    [3, "query"],
    [3, "auth"],
    [3, "header"],
    [2, "method"],
    [1, "content-type"],
    [1, "protocol"],
    [0.1, "huge"],
  ]);
  switch (kind) {
    case "json": {
      if (request.body?.kind === "form" || request.body?.kind === "multipart") {
        const key = random.pick(Object.keys(request.body.value).concat("extra"));
        const odd = oddString(random, FIELD_LIMITS[key.replace(/^1_/, "")]);
        request.body = { kind: request.body.kind, value: { ...request.body.value, [key]: odd.value } };
        return `form.${key}=${odd.label}`;
      }
      const mutated = mutateJson(random, request.body?.kind === "json" ? request.body.value : {});
      request.body = { kind: "json", value: mutated.value };
      return mutated.label;
    }
    case "bad-json": {
      const text = badJsonText(random);
      request.body = { kind: "raw", bytes: Buffer.from(text.value, "utf8"), label: text.label };
      return `body=bad-json:${text.label}`;
    }
    case "segment": {
      const odd = oddSegment(random);
      const at = request.params.length > 0 && random.chance(0.8) ? random.pick(request.params) : random.int(0, request.segments.length - 1);
      request.segments = request.segments.map((segment, index) => (index === at ? odd.value : segment));
      return `path[${at}]=${odd.label}`;
    }
    case "path-shape": {
      const shape = random.pick(["trailing-slash", "double-slash", "dot-segment", "extra-segment", "upper-case", "fragment", "absolute-form", "star"]);
      const path = `/${request.segments.join("/")}`;
      if (shape === "trailing-slash") request.segments = [...request.segments, ""];
      if (shape === "double-slash") request.segments = ["", ...request.segments];
      if (shape === "dot-segment") request.segments = [request.segments[0]!, "..", ...request.segments];
      if (shape === "extra-segment") request.segments = [...request.segments, random.pick(["x", "raw", "v", "..", "%zz", "index.html"])];
      if (shape === "upper-case") request.segments = request.segments.map((segment) => segment.toUpperCase());
      if (shape === "fragment") request.target = `${path}#frag`;
      if (shape === "absolute-form") request.target = `http://127.0.0.1:1${path}`;
      if (shape === "star") request.target = "*";
      return `path-shape=${shape}`;
    }
    case "query": {
      const odd = oddQuery(random);
      request.query = request.query ? `${request.query}&${odd.value}` : odd.value;
      return `query=${odd.label}`;
    }
    case "auth": {
      const variant = authVariant(random, context);
      setHeader(request, "authorization", variant.value);
      return `auth=${variant.label}`;
    }
    case "header": {
      const odd = oddHeader(random, context);
      if (odd.header[0] === "host") setHeader(request, "host", odd.header[1]);
      else request.headers.push(odd.header);
      return odd.label;
    }
    case "method":
      request.method = random.pick(METHODS);
      return `method=${request.method}`;
    case "content-type": {
      const value = random.pick([null, "text/plain", "application/json; charset=latin1", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "APPLICATION/JSON"]);
      setHeader(request, "content-type", value);
      return `content-type=${value ?? "none"}`;
    }
    case "protocol": {
      const oddity = random.pick(["chunked", "no-host", "bad-content-length", "negative-content-length", "double-content-length", "header-ctl-char", "header-obs-fold", "long-header-20k", "many-headers", "long-url-20k", "long-url-7k", "space-in-target"]);
      if (oddity === "chunked") request.chunked = true;
      if (oddity === "no-host") request.noHost = true;
      if (oddity === "bad-content-length") request.headers.push(["content-length", "abc"]);
      if (oddity === "negative-content-length") request.headers.push(["content-length", "-1"]);
      if (oddity === "double-content-length") request.headers.push(["content-length", "0"], ["content-length", "5"]);
      if (oddity === "header-ctl-char") request.headers.push(["x-fuzz", "a\u0000b\u0007"]);
      if (oddity === "header-obs-fold") request.headers.push(["x-fuzz", "a\r\n folded"]);
      if (oddity === "long-header-20k") request.headers.push(["x-fuzz", "a".repeat(20_000)]);
      if (oddity === "many-headers") for (let i = 0; i < 300; i++) request.headers.push([`x-fuzz-${i}`, "v"]);
      if (oddity === "long-url-20k") request.query = `q=${"a".repeat(20_000)}`;
      if (oddity === "long-url-7k") request.segments = [...request.segments.slice(0, -1), "a".repeat(7000)];
      if (oddity === "space-in-target") request.segments = [...request.segments, "a b"];
      return `protocol=${oddity}`;
    }
    default: {
      const huge = hugeBody(random);
      request.body = huge.body;
      return `huge=${huge.label}`;
    }
  }
}

export function mutate(random: Random, template: Template, context: FuzzContext): FuzzCase {
  const request: FuzzCase = { ...template, headers: [...template.headers], segments: [...template.segments], mutations: [] };
  const count = random.weighted([[5, 1], [3, 2], [1, 3]]);
  for (let i = 0; i < count; i++) request.mutations.push(mutateOnce(random, request, context));
  return request;
}

export function toWire(request: FuzzCase): WireRequest {
  const path = `/${request.segments.join("/")}`;
  const target = request.target ?? (request.query ? `${path}?${request.query}` : path);
  const headers = [...request.headers];
  let body: Buffer | undefined;
  if (request.body) {
    const encoded = encodeBody(request.body);
    body = encoded.bytes;
    if (encoded.contentType && !headers.some(([name]) => name.toLowerCase() === "content-type")) headers.push(["content-type", encoded.contentType]);
  }
  return { method: request.method, target, headers, body, chunked: request.chunked, noHost: request.noHost };
}
