import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { BlockList, isIP } from "node:net";
import { join, resolve } from "node:path";
import { z } from "zod";
import { DROP_ACCESS_LEVELS } from "./sharing/levels";

/** Limits fixed by the interface specification. */
export const SPEC_LIMITS = {
  htmlMaxBytes: 2_097_152,
  contextMaxBytes: 65_536,
  titleMaxChars: 200,
  descriptionMaxChars: 500,
  passcodeMinChars: 4,
  metadataMaxKeys: 10,
  metadataKeyMaxChars: 64,
  metadataValueMaxChars: 256,
  pageSizeDefault: 50,
  pageSizeMax: 200,
  deviceCodeTtlSeconds: 600,
  pollIntervalSeconds: 2,
} as const;

/**
 * Passcodes are hashed with scrypt, N = 2^this (r = 8): 32 MiB and 120 to 170 ms of CPU a guess on a
 * 2-core machine of 2026. HTMLDROP_TEST_PASSCODE_COST lowers it for test servers only.
 */
export const PASSCODE_SCRYPT_LOG2_N = 15;
/** The cheapest scrypt a test server may ask for: N = 2^10, 1 MiB and a few milliseconds. */
const TEST_PASSCODE_SCRYPT_LOG2_N_MIN = 10;

/** The largest body a page form (a server action) may send: a whole document and its context, with room for the other fields. */
export const SERVER_ACTION_BODY_MAX_BYTES = SPEC_LIMITS.htmlMaxBytes + SPEC_LIMITS.contextMaxBytes + 128 * 1024;

/**
 * What TOKEN_PREFIX may be set to. The prefix is a label for people and secret scanners, not part of the
 * secret, so a token carrying any such prefix is well-formed, whatever the setting is now.
 */
export const TOKEN_PREFIX_PATTERN = /^[a-z]{1,8}$/;

/**
 * Whose X-Forwarded-For is believed: nobody's; every peer's, as the last `hops` entries (each of that
 * many proxies in a row appended one; `true` is one); or only the listed proxies', walking back from the
 * socket through the entries for as long as the address reached is one of them.
 */
export type TrustProxy = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "addresses"; proxies: BlockList };

export const TRUST_PROXY_MAX_HOPS = 10;
const TRUST_PROXY_FORMS = `true, false, a number of proxies in a row (1 to ${TRUST_PROXY_MAX_HOPS}) or the proxies' addresses and ranges, comma-separated (127.0.0.1,10.0.0.0/8)`;

function parseTrustProxy(text: string | undefined, ctx: z.RefinementCtx): TrustProxy {
  const value = text?.trim() ?? "false";
  if (value === "false") return { kind: "none" };
  if (value === "true") return { kind: "hops", hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= TRUST_PROXY_MAX_HOPS) return { kind: "hops", hops };
  } else {
    const proxies = new BlockList();
    const entries = value.split(",").map((entry) => entry.trim());
    const added = entries.every((entry) => {
      const [address = "", prefix] = entry.split("/");
      const family = isIP(address);
      const type = family === 4 ? "ipv4" : "ipv6";
      if (family === 0) return false;
      if (prefix === undefined) proxies.addAddress(address, type);
      else if (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)) proxies.addSubnet(address, Number(prefix), type);
      else return false;
      return true;
    });
    if (added) return { kind: "addresses", proxies };
  }
  ctx.addIssue({ code: "custom", message: `must be ${TRUST_PROXY_FORMS}` });
  return z.NEVER;
}

const positiveInt = z.coerce.number().int().positive();
const flag = z.enum(["true", "false"]).transform((value) => value === "true");
const optionalText = z.string().trim().min(1).optional();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL (leave unset for the embedded SQLite)")
    .optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  TOKEN_PEPPER: z.string().min(32, "must be at least 32 characters").optional(),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  EXPIRED_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
  AUTH_GITHUB_ID: optionalText,
  AUTH_GITHUB_SECRET: optionalText,
  AUTH_OIDC_ISSUER: z.url().optional(),
  AUTH_OIDC_ID: optionalText,
  AUTH_OIDC_SECRET: optionalText,
  AUTH_OIDC_NAME: optionalText,
  AUTH_DEV_LOGIN: flag.optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL").optional(),
  UPSTASH_REDIS_REST_URL: z.url().optional(),
  UPSTASH_REDIS_REST_TOKEN: optionalText,
  TRUST_PROXY: z.string().optional().transform(parseTrustProxy),
  LISTEN_ADDRESS: z
    .string()
    .trim()
    .refine((address) => isIP(address) !== 0, "must be an IP address, such as 127.0.0.1 (loopback only, behind a proxy on this machine)")
    .optional(),
  CONTENT_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  TOKEN_PREFIX: z.string().regex(TOKEN_PREFIX_PATTERN, "must be 1 to 8 lower-case letters").default("hd"),
  LIMIT_WRITES_PER_MINUTE: positiveInt.default(60),
  LIMIT_WRITES_PER_DAY: positiveInt.default(500),
  LIMIT_DROPS_PER_ACCOUNT: positiveInt.default(500),
  LIMIT_VERSIONS_PER_DROP: positiveInt.default(200),
  DEFAULT_DROP_ACCESS: z.enum(DROP_ACCESS_LEVELS).optional(),
  PUBLIC_DROPS: z.enum(["on", "off"]).default("on"),
  ORG_EMAIL_DOMAINS: z
    .string()
    .trim()
    .transform((list) => list.split(",").map((domain) => domain.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, "must be comma-separated email domains, such as example.com")))
    .optional(),
  ORG_OIDC_CLAIM: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:.-]+=.+$/, "must be claim=value, such as groups=engineering")
    .transform((setting) => ({ claim: setting.slice(0, setting.indexOf("=")), value: setting.slice(setting.indexOf("=") + 1) }))
    .optional(),
  SMTP_URL: z.string().trim().regex(/^smtps?:\/\/[^/]/, "must be an smtp:// or smtps:// URL, such as smtp://user:pass@mail.example.com:587").optional(),
  MAIL_FROM: optionalText,
  HTMLDROP_TEST_CLOCK_FILE: optionalText,
  HTMLDROP_TEST_PASSCODE_COST: z.coerce
    .number()
    .int()
    .min(TEST_PASSCODE_SCRYPT_LOG2_N_MIN)
    .max(PASSCODE_SCRYPT_LOG2_N, `must be at most ${PASSCODE_SCRYPT_LOG2_N}, the default: it only makes hashing cheaper`)
    .optional(),
});

export type Config = ReturnType<typeof parseConfig>;

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Secrets an operator did not set are generated once and kept in DATA_DIR, so restarts keep tokens valid. */
function loadGeneratedSecrets(dataDir: string): { authSecret: string; tokenPepper: string } {
  const file = join(dataDir, "secrets.json");
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secrets = { authSecret: randomBytes(32).toString("base64url"), tokenPepper: randomBytes(32).toString("base64url") };
  try {
    writeFileSync(file, JSON.stringify(secrets), { mode: 0o600, flag: "wx" });
    return secrets;
  } catch (error) {
    // Another process won the race to create the file: use its secrets.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return JSON.parse(readFileSync(file, "utf8"));
    throw error;
  }
}

/** Validates an environment; exported for tests, everything else calls getConfig(). */
export function parseConfig(env: Record<string, string | undefined>) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];

  const publicUrl = trimSlash(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const production = !isLoopbackHost(new URL(publicUrl).hostname);
  const dataDir = resolve(e.DATA_DIR);

  const github = e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET ? { clientId: e.AUTH_GITHUB_ID, clientSecret: e.AUTH_GITHUB_SECRET } : null;
  if (Boolean(e.AUTH_GITHUB_ID) !== Boolean(e.AUTH_GITHUB_SECRET)) {
    problems.push("AUTH_GITHUB_ID and AUTH_GITHUB_SECRET: set both or neither");
  }
  const oidcParts = [e.AUTH_OIDC_ISSUER, e.AUTH_OIDC_ID, e.AUTH_OIDC_SECRET];
  const oidc =
    e.AUTH_OIDC_ISSUER && e.AUTH_OIDC_ID && e.AUTH_OIDC_SECRET
      ? { issuer: trimSlash(e.AUTH_OIDC_ISSUER), clientId: e.AUTH_OIDC_ID, clientSecret: e.AUTH_OIDC_SECRET, name: e.AUTH_OIDC_NAME ?? "OpenID Connect" }
      : null;
  if (oidcParts.some(Boolean) && !oidc) {
    problems.push("AUTH_OIDC_ISSUER, AUTH_OIDC_ID and AUTH_OIDC_SECRET: set all three or none");
  }

  const devLogin = e.AUTH_DEV_LOGIN ?? (!github && !oidc && !production);
  if (devLogin && production) {
    problems.push(`AUTH_DEV_LOGIN: the passwordless local sign-in cannot be enabled when PUBLIC_URL (${publicUrl}) is not a loopback address`);
  }
  if (production && e.HTMLDROP_TEST_CLOCK_FILE) {
    problems.push("HTMLDROP_TEST_CLOCK_FILE: test clocks are refused when PUBLIC_URL is not a loopback address");
  }
  if (production && e.HTMLDROP_TEST_PASSCODE_COST !== undefined) {
    problems.push("HTMLDROP_TEST_PASSCODE_COST: cheaper passcode hashes are refused when PUBLIC_URL is not a loopback address");
  }
  if (production && (!e.AUTH_SECRET || !e.TOKEN_PEPPER)) {
    problems.push("AUTH_SECRET and TOKEN_PEPPER: required when PUBLIC_URL is not a loopback address (generate each with `openssl rand -base64 32`)");
  }
  if (Boolean(e.UPSTASH_REDIS_REST_URL) !== Boolean(e.UPSTASH_REDIS_REST_TOKEN)) {
    problems.push("UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN: set both or neither");
  }
  if (e.PUBLIC_DROPS === "off" && e.DEFAULT_DROP_ACCESS === "public") {
    problems.push("DEFAULT_DROP_ACCESS: cannot be public while PUBLIC_DROPS=off");
  }
  if (e.ORG_OIDC_CLAIM && !e.AUTH_OIDC_ISSUER) problems.push("ORG_OIDC_CLAIM: needs the OIDC sign-in (AUTH_OIDC_ISSUER, AUTH_OIDC_ID, AUTH_OIDC_SECRET)");
  if (Boolean(e.SMTP_URL) !== Boolean(e.MAIL_FROM)) problems.push("SMTP_URL and MAIL_FROM: set both or neither (email notifications need a server and a sender)");
  if (problems.length > 0) throw new ConfigError(problems);

  const secretsFromEnvironment = Boolean(e.AUTH_SECRET && e.TOKEN_PEPPER);
  const secrets = secretsFromEnvironment ? { authSecret: e.AUTH_SECRET!, tokenPepper: e.TOKEN_PEPPER! } : { ...loadGeneratedSecrets(dataDir), ...definedSecrets(e) };

  return {
    port: e.PORT,
    publicUrl,
    trustProxy: e.TRUST_PROXY,
    /** The one address to listen on; null: every address. */
    listenAddress: e.LISTEN_ADDRESS ?? null,
    contentOrigin: e.CONTENT_ORIGIN ? trimSlash(e.CONTENT_ORIGIN) : publicUrl,
    production,
    dataDir,
    database: e.DATABASE_URL
      ? ({ provider: "postgres", url: e.DATABASE_URL } as const)
      : ({ provider: "sqlite", file: join(dataDir, "htmldrop.db") } as const),
    authSecret: secrets.authSecret,
    tokenPepper: secrets.tokenPepper,
    /** Both secrets set by the operator, so DATA_DIR/secrets.json is not read (nor backed up or restored). */
    secretsFromEnvironment,
    tokenPrefix: e.TOKEN_PREFIX,
    /** scrypt's N for new passcode hashes, as a power of two; a stored hash carries its own. */
    passcodeScryptLog2N: e.HTMLDROP_TEST_PASSCODE_COST ?? PASSCODE_SCRYPT_LOG2_N,
    /** A file holding milliseconds to add to the clock (lib/clock.ts), for tests; null: the real time. */
    testClockFile: e.HTMLDROP_TEST_CLOCK_FILE ?? null,
    metricsToken: e.METRICS_TOKEN ?? null,
    /** What Vercel's cron sends as its bearer token to /api/cron/purge-expired; unset, the route refuses every call. */
    cronSecret: e.CRON_SECRET ?? null,
    /** Days an expired drop is kept (answering 410, still the owner's to extend) before the purge deletes it. */
    expiredRetentionDays: e.EXPIRED_RETENTION_DAYS,
    auth: { github, oidc, devLogin },
    /** Owner notifications by email; null: none are sent, and the dashboard's notices are all there is. */
    mail: e.SMTP_URL && e.MAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } : null,
    rateLimitBackend: e.UPSTASH_REDIS_REST_URL
      ? ({ kind: "upstash", url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN! } as const)
      : e.REDIS_URL
        ? ({ kind: "redis", url: e.REDIS_URL } as const)
        : ({ kind: "database" } as const),
    sharing: {
      /** The access a drop gets when its creator does not say. */
      defaultAccess: (e.DEFAULT_DROP_ACCESS ?? (e.PUBLIC_DROPS === "off" ? "signed_in" : "public")),
      /** PUBLIC_DROPS=off: no drop may be public; drops made public before are treated as signed_in. */
      publicAllowed: e.PUBLIC_DROPS === "on",
      /** Who counts as a member when ORG_* set a boundary; null: every account of the instance. */
      org:
        e.ORG_EMAIL_DOMAINS?.length || e.ORG_OIDC_CLAIM
          ? { emailDomains: e.ORG_EMAIL_DOMAINS ?? [], oidcClaim: e.ORG_OIDC_CLAIM ?? null }
          : null,
    },
    limits: {
      ...SPEC_LIMITS,
      writesPerMinute: e.LIMIT_WRITES_PER_MINUTE,
      writesPerDay: e.LIMIT_WRITES_PER_DAY,
      dropsPerAccount: e.LIMIT_DROPS_PER_ACCOUNT,
      versionsPerDrop: e.LIMIT_VERSIONS_PER_DROP,
    },
  };
}

function definedSecrets(e: z.infer<typeof envSchema>) {
  return {
    ...(e.AUTH_SECRET ? { authSecret: e.AUTH_SECRET } : {}),
    ...(e.TOKEN_PEPPER ? { tokenPepper: e.TOKEN_PEPPER } : {}),
  };
}

const CONFIG_KEY = Symbol.for("htmldrop.config");
type ConfigHolder = { [CONFIG_KEY]?: Config };

/** The validated configuration, read once per process. Throws ConfigError naming each bad variable. */
export function getConfig(): Config {
  const holder = globalThis as ConfigHolder;
  return (holder[CONFIG_KEY] ??= parseConfig(process.env));
}

/** Reads the environment again at the next getConfig(): for the tests' token minter, which serves one test server after another. */
export function reloadConfig(): void {
  delete (globalThis as ConfigHolder)[CONFIG_KEY];
}
