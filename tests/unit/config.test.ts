import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, PASSCODE_SCRYPT_LOG2_N, parseConfig } from "@/lib/config";

const dataDir = () => mkdtempSync(join(tmpdir(), "htmldrop-config-"));
const secrets = { AUTH_SECRET: "a".repeat(32), TOKEN_PEPPER: "p".repeat(32) };

function problems(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("configuration", () => {
  it("defaults to the spec's limits, SQLite under DATA_DIR and a local sign-in on loopback", () => {
    const dir = dataDir();
    const config = parseConfig({ DATA_DIR: dir });
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.database).toEqual({ provider: "sqlite", file: join(dir, "htmldrop.db") });
    expect(config.limits).toMatchObject({ writesPerMinute: 60, writesPerDay: 500, dropsPerAccount: 500, versionsPerDrop: 200, htmlMaxBytes: 2_097_152 });
    expect(config.auth.devLogin).toBe(true);
    expect(config.rateLimitBackend).toEqual({ kind: "database" });
    // Generated secrets persist, so restarts keep tokens valid.
    expect(parseConfig({ DATA_DIR: dir }).tokenPepper).toBe(config.tokenPepper);
  });

  it("names every bad variable", () => {
    const message = problems({ DATA_DIR: dataDir(), PORT: "http", DATABASE_URL: "mysql://x", LIMIT_WRITES_PER_DAY: "0", TOKEN_PREFIX: "HD!" });
    for (const name of ["PORT", "DATABASE_URL", "LIMIT_WRITES_PER_DAY", "TOKEN_PREFIX"]) expect(message).toContain(name);
  });

  it("refuses the local sign-in, generated secrets and test settings on a public URL", () => {
    const base = { DATA_DIR: dataDir(), PUBLIC_URL: "https://drops.example.com" };
    expect(problems({ ...base, ...secrets, AUTH_DEV_LOGIN: "true" })).toContain("AUTH_DEV_LOGIN");
    expect(problems(base)).toContain("AUTH_SECRET and TOKEN_PEPPER");
    expect(problems({ ...base, ...secrets, HTMLDROP_TEST_CLOCK_FILE: "/tmp/x" })).toContain("HTMLDROP_TEST_CLOCK_FILE");
    expect(problems({ ...base, ...secrets, HTMLDROP_TEST_PASSCODE_COST: "10" })).toContain("HTMLDROP_TEST_PASSCODE_COST");
    const config = parseConfig({ ...base, ...secrets });
    expect(config.production).toBe(true);
    expect(config.auth.devLogin).toBe(false);
  });

  it("lowers scrypt's cost for passcodes only on a test server, never below 2^10 nor above the default", () => {
    expect(parseConfig({ DATA_DIR: dataDir() }).passcodeScryptLog2N).toBe(PASSCODE_SCRYPT_LOG2_N);
    expect(parseConfig({ DATA_DIR: dataDir(), HTMLDROP_TEST_PASSCODE_COST: "10" }).passcodeScryptLog2N).toBe(10);
    expect(problems({ DATA_DIR: dataDir(), HTMLDROP_TEST_PASSCODE_COST: "9" })).toContain("HTMLDROP_TEST_PASSCODE_COST");
    expect(problems({ DATA_DIR: dataDir(), HTMLDROP_TEST_PASSCODE_COST: "16" })).toContain("at most 15, the default");
  });

  it("selects PostgreSQL, Redis and limit overrides from the environment", () => {
    const config = parseConfig({
      DATA_DIR: dataDir(),
      DATABASE_URL: "postgresql://u@h/db",
      REDIS_URL: "redis://127.0.0.1:6379",
      LIMIT_VERSIONS_PER_DROP: "3",
      CONTENT_ORIGIN: "https://usercontent.example.net/",
    });
    expect(config.database).toEqual({ provider: "postgres", url: "postgresql://u@h/db" });
    expect(config.rateLimitBackend).toEqual({ kind: "redis", url: "redis://127.0.0.1:6379" });
    expect(config.limits.versionsPerDrop).toBe(3);
    expect(config.contentOrigin).toBe("https://usercontent.example.net");
  });

  it("reads TRUST_PROXY as off, a number of proxies in a row or the proxies' addresses, and LISTEN_ADDRESS as one address", () => {
    const trust = (value?: string) => parseConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value }).trustProxy;
    expect(trust()).toEqual({ kind: "none" });
    expect(trust("false")).toEqual({ kind: "none" });
    expect(trust("true")).toEqual({ kind: "hops", hops: 1 });
    expect(trust("2")).toEqual({ kind: "hops", hops: 2 });
    const listed = trust("127.0.0.1, 10.0.0.0/8,::1");
    if (listed.kind !== "addresses") throw new Error(`expected addresses, got ${listed.kind}`);
    expect(["127.0.0.1", "10.200.0.1"].map((address) => listed.proxies.check(address))).toEqual([true, true]);
    expect(listed.proxies.check("::1", "ipv6")).toBe(true);
    expect(listed.proxies.check("192.0.2.7")).toBe(false);
    for (const bad of ["yes", "0", "11", "10.0.0.0/33", "127.0.0.1,", "proxy.example.com"]) expect(problems({ DATA_DIR: dataDir(), TRUST_PROXY: bad }), bad).toContain("TRUST_PROXY");
    expect(parseConfig({ DATA_DIR: dataDir() }).listenAddress).toBeNull();
    expect(parseConfig({ DATA_DIR: dataDir(), LISTEN_ADDRESS: "127.0.0.1" }).listenAddress).toBe("127.0.0.1");
    expect(problems({ DATA_DIR: dataDir(), LISTEN_ADDRESS: "localhost" })).toContain("LISTEN_ADDRESS");
  });

  it("requires providers' variables in complete sets", () => {
    expect(problems({ DATA_DIR: dataDir(), AUTH_GITHUB_ID: "x" })).toContain("AUTH_GITHUB_ID and AUTH_GITHUB_SECRET");
    expect(problems({ DATA_DIR: dataDir(), AUTH_OIDC_ISSUER: "https://id.example.com" })).toContain("AUTH_OIDC_ISSUER");
    expect(problems({ DATA_DIR: dataDir(), SMTP_URL: "smtp://mail.example.com:587" })).toContain("SMTP_URL and MAIL_FROM");
    expect(problems({ DATA_DIR: dataDir(), SMTP_URL: "https://mail.example.com", MAIL_FROM: "a@example.com" })).toContain("SMTP_URL: must be an smtp://");
    expect(parseConfig({ DATA_DIR: dataDir(), SMTP_URL: "smtps://u:p@mail.example.com:465", MAIL_FROM: "htmldrop <a@example.com>" }).mail).toEqual({ smtpUrl: "smtps://u:p@mail.example.com:465", from: "htmldrop <a@example.com>" });
    expect(parseConfig({ DATA_DIR: dataDir() }).mail).toBeNull();
  });
});
