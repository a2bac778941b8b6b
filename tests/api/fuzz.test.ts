// A bounded, seeded fuzz of every endpoint: valid requests of each endpoint with their bodies, paths,
// queries, headers, methods and framing mutated, plus arbitrary paths. No answer may be a 5xx (or
// missing); every 4xx under /api and /mcp, and every JSON error anywhere, is the spec's Error shape;
// /mcp answers JSON-RPC envelopes. FUZZ_SEED, FUZZ_REQUESTS (per database), FUZZ_CONCURRENCY and
// FUZZ_EXAMPLES (per group of findings) reproduce, widen or detail a run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, testDb, type TestApp } from "../helpers/app";
import { report, summarize, type Outcome, type Rule } from "../helpers/fuzz/check";
import { mutate, toWire, type FuzzCase } from "../helpers/fuzz/mutate";
import { Random } from "../helpers/fuzz/random";
import { sendWire } from "../helpers/fuzz/raw-http";
import { randomTemplate, validTemplate, type FuzzContext } from "../helpers/fuzz/templates";
import { serverActionIds, signInAs } from "../helpers/session";

const SEED = Number(process.env.FUZZ_SEED ?? 11_2026);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1200);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 16);
const EXAMPLES = Number(process.env.FUZZ_EXAMPLES ?? 2);
const REQUEST_TIMEOUT_MS = 30_000;
const REPRODUCE = `FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS} npx vitest run --project ${testDb()} tests/api/fuzz.test.ts`;

// No write limit may hide the deeper paths behind a 429.
const LIMITS = { LIMIT_WRITES_PER_MINUTE: "1000000", LIMIT_WRITES_PER_DAY: "1000000", LIMIT_DROPS_PER_ACCOUNT: "1000000", LIMIT_VERSIONS_PER_DROP: "1000000" };
const HTML = "<!doctype html><html><head><title>t</title></head><body><p>seed</p></body></html>";

let app: TestApp;
let context: FuzzContext;
const outcomes: Outcome[] = [];
let seconds = 0;

async function createDrop(token: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await app.api("/api/drops", { method: "POST", token, body: { title: "seed drop", html: HTML, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.slug;
}

async function tokenId(token: string): Promise<string> {
  return (await app.api("/api/me", { token })).body.token.id;
}

async function setUp(): Promise<FuzzContext> {
  // The first call creates the account; the others, in parallel, only add tokens to it.
  const token = await app.createToken("fuzz", "fuzz");
  const [otherToken, revokedToken, ...doomedTokens] = await Promise.all(
    ["fuzz-other", "fuzz", "fuzz", "fuzz", "fuzz", "fuzz"].map((login, i) => app.createToken(login, `fuzz ${i}`)),
  );
  const revokedId = await tokenId(revokedToken!);
  expect((await app.api(`/api/tokens/${revokedId}`, { method: "DELETE", token })).status).toBe(204);
  const passcode = "open-sesame";
  const stableSlugs = [
    await createDrop(token, { metadata: { project: "alpha" }, context: "why" }),
    await createDrop(token, { passcode, description: "locked" }),
    await createDrop(token),
  ];
  for (let i = 0; i < 3; i++) await app.api(`/api/drops/${stableSlugs[0]}`, { method: "PUT", token, body: { html: `${HTML}<!-- ${i} -->` } });
  const doomedSlugs = await Promise.all(Array.from({ length: 8 }, () => createDrop(token)));
  const start = await app.api("/api/auth/start", { method: "POST", body: { label: "fuzz device" } });
  // Comments open to anyone on the first stable drop, with one to answer, resolve and list.
  expect((await app.api(`/api/drops/${stableSlugs[0]}`, { method: "PATCH", token, body: { comments: "anyone" } })).status).toBe(200);
  const comment = await app.api(`/api/drops/${stableSlugs[0]}/comments`, { method: "POST", token, body: { body: "A seed comment" } });
  expect(comment.status, comment.text).toBe(201);
  const patternName = "fuzz-pattern";
  const pattern = await app.api(`/api/patterns/${patternName}`, { method: "PUT", token, body: { markdown: `---\nname: ${patternName}\ndescription: A fuzz pattern.\ntriggers: [fuzz]\n---\n\n# Fuzz\n` } });
  expect(pattern.status, pattern.text).toBe(201);
  const sessionCookie = await signInAs(app, "fuzz");
  const oauth = await oauthFixtures(sessionCookie);
  return {
    token,
    otherToken: otherToken!,
    revokedToken: revokedToken!,
    stableSlugs,
    doomedSlugs,
    otherSlug: await createDrop(otherToken!),
    doomedTokenIds: await Promise.all(doomedTokens.map(tokenId)),
    otherTokenId: await tokenId(otherToken!),
    pollToken: start.body.poll_token,
    userCode: start.body.code,
    passcode,
    sessionCookie,
    actions: serverActionIds(),
    origin: app.baseUrl,
    ...oauth,
    commentId: comment.body.id,
    patternName,
  };
}

/** A registered OAuth client, and the consent page an authorization by the fuzzing account is waiting on. */
async function oauthFixtures(sessionCookie: string): Promise<Pick<FuzzContext, "oauthClientId" | "oauthRedirectUri" | "consentUid">> {
  const oauthRedirectUri = "http://127.0.0.1:9/callback";
  const registered = await app.api("/oauth/register", { method: "POST", body: { client_name: "Fuzz client", redirect_uris: [oauthRedirectUri], token_endpoint_auth_method: "none" } });
  expect(registered.status, registered.text).toBe(201);
  const oauthClientId: string = registered.body.client_id;
  const query = new URLSearchParams({ client_id: oauthClientId, response_type: "code", redirect_uri: oauthRedirectUri, code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", scope: "drops:read", resource: `${app.baseUrl}/mcp`, state: "s" });
  let location = `/oauth/authorize?${query}`;
  let consentUid = "";
  for (let hops = 0; hops < 4 && !consentUid; hops++) {
    const response = await fetch(new URL(location, app.baseUrl), { headers: { cookie: sessionCookie }, redirect: "manual" });
    location = response.headers.get("location") ?? "";
    consentUid = /^\/oauth\/consent\/([^/?]+)/.exec(new URL(location || "/", app.baseUrl).pathname)?.[1] ?? "";
    if (!location) break;
  }
  expect(consentUid, "the authorization reached the consent page").not.toBe("");
  return { oauthClientId, oauthRedirectUri, consentUid };
}

/**
 * Sends REQUESTS requests, CONCURRENCY at a time. Each is generated when a sender takes it, in index
 * order, so the seed alone decides every request (the drops and tokens they name come from setUp) and
 * no large body outlives its request.
 */
async function run(random: Random): Promise<void> {
  const port = Number(app.env.PORT);
  let next = 0;
  const sender = async () => {
    while (next < REQUESTS) {
      const index = next++;
      const template = random.chance(0.1) ? randomTemplate(random, context) : validTemplate(random, context);
      const request: FuzzCase = random.chance(0.08) ? { ...template, mutations: [] } : mutate(random, template, context);
      const wire = toWire(request);
      const sent = performance.now();
      const result = await sendWire(port, wire, REQUEST_TIMEOUT_MS);
      outcomes.push(summarize(index, request, wire, result, performance.now() - sent));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, sender));
}

beforeAll(async () => {
  app = await startApp({ env: LIMITS });
  context = await setUp();
  const started = performance.now();
  await run(new Random(SEED));
  seconds = (performance.now() - started) / 1000;
  console.log(`fuzz: ${REQUESTS} requests on ${testDb()} in ${seconds.toFixed(1)} s (seed ${SEED}, ${CONCURRENCY} in flight); most time: ${slowest()}`);
}, 120_000 + REQUESTS * 100);
afterAll(async () => app?.stop());

/** Where the run spent its time, by endpoint (summed over concurrent requests). */
function slowest(): string {
  const totals = new Map<string, number>();
  for (const { pattern, ms } of outcomes) totals.set(pattern, (totals.get(pattern) ?? 0) + ms);
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([pattern, ms]) => `${pattern} ${(ms / 1000).toFixed(0)} s`).join(", ");
}

/**
 * Errors that reached the server's log, by first line: a line a stack trace follows, Next's ⨯ marker on
 * an error, our own "failed"/"unhandled" lines. Next's notices of server-action ids it does not know
 * (answered 400 or 409, with a stack for the latter) are refusals, not errors; so are the decoding
 * failures Next logs for a hand-made action body, which server.ts answers with a 400 Error (the
 * answer rules above check that).
 */
const ACTION_BODY_DECODING = /^\s*⨯ (SyntaxError: .*JSON|Error: Unexpected end of form|TypeError: Failed to parse body as FormData\.)/s;

/**
 * What the log prints after such a decoding failure's first line: its stack and, since Node.js 24's fetch
 * (undici 7) gives the FormData error a cause ("no boundary found in multipart body"), that cause's
 * `[cause]:` line, a stack of its own and the closing brace. They belong to the same refusal.
 */
const DECODING_DETAIL = /^\s+(at \S|\.\.\. \d+ lines? matching|\[cause\]: )|^\s*}\s*$/;

/**
 * JSON.parse's message quotes the text it failed on, so a form field with a line break in it (`a\r\nb`)
 * spreads the message over lines: joined back into one (a \r may remain, hence the s flag above), it is
 * recognised as the decoding failure it is.
 */
function joinJsonMessages(lines: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const brokenMessage = /⨯ SyntaxError: /.test(lines[i]!) && !lines[i]!.includes("JSON");
    const end = brokenMessage ? lines.findIndex((line, j) => j > i && (/^\s+at \S/.test(line) || line.endsWith("is not valid JSON"))) : -1;
    if (end !== -1 && lines[end]!.endsWith("is not valid JSON")) {
      joined.push(lines.slice(i, end + 1).join("\\n"));
      i = end;
    } else joined.push(lines[i]!);
  }
  return joined;
}

function loggedErrors(logs: string): Map<string, number> {
  const lines = joinJsonMessages(logs.split("\n"));
  const found = new Map<string, number>();
  const frame = /^\s+at \S/;
  let inDecodingFailure = false;
  lines.forEach((line, i) => {
    const stackFollows = !frame.test(line) && frame.test(lines[i + 1] ?? "");
    if (line.includes("nextjs.org/docs/messages/failed-to-find-server-action")) return;
    if (ACTION_BODY_DECODING.test(line)) {
      inDecodingFailure = true;
      return;
    }
    if (inDecodingFailure && DECODING_DETAIL.test(line)) return;
    inDecodingFailure = false;
    if (stackFollows || /⨯ .*Error\b|htmldrop: .*(failed|unhandled)|uncaught|unhandled/i.test(line)) {
      const key = line.trim().slice(0, 200);
      found.set(key, (found.get(key) ?? 0) + 1);
    }
  });
  return found;
}

function expectNoFindings(rule: Rule): void {
  const found = report(outcomes, rule, EXAMPLES);
  if (found) throw new Error(`fuzz findings (reproduce: ${REPRODUCE}):\n${found}`);
}

describe(`fuzz of every endpoint (seed ${SEED})`, () => {
  it("sent every request", () => {
    expect(outcomes).toHaveLength(REQUESTS);
  });

  it("answers every request, never with a 5xx", () => {
    expectNoFindings("answer");
  });

  it("answers every 4xx under /api and /mcp, and every JSON error, in the Error shape", () => {
    expectNoFindings("error-shape");
  });

  it("answers /mcp with JSON-RPC envelopes, never an internal error", () => {
    expectNoFindings("json-rpc");
  });

  it("still answers afterwards and logged no unhandled error", async () => {
    const me = await app.api("/api/me", { token: context.token });
    expect(me.status).toBe(200);
    const errors = [...loggedErrors(app.logs())].map(([line, count]) => `${count}× ${line}`);
    expect(errors, `server log lines (reproduce: ${REPRODUCE})`).toEqual([]);
  });
});
