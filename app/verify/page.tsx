import type { Metadata } from "next";
import { headers } from "next/headers";
import { now } from "@/lib/clock";
import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from "@/lib/accounts/scopes";
import { isLoopbackRequest } from "@/lib/auth/loopback";
import { signInMethods, type SignInMethod } from "@/lib/auth/next-auth";
import { getSessionUser, signInPath, signOutPath, type SessionUser } from "@/lib/auth/session";
import { DEVICE_AUTH_MESSAGES, describeDeviceAuth, isDeviceAuthMessageKey, refusalNotice, type DeviceAuthMessageKey, type DeviceAuthView } from "@/lib/device-auth";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { approveDeviceAction, denyDeviceAction } from "./actions";
import { CodeExpiry } from "./code-expiry";
import { verifyPath } from "./paths";
import styles from "./verify.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Approve a device", robots: { index: false } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function Notice({ kind, tone }: { kind: DeviceAuthMessageKey; tone: "ok" | "error" }) {
  return (
    <p className={tone === "ok" ? styles.ok : styles.error} role={tone === "ok" ? "status" : "alert"} data-notice={kind}>
      {DEVICE_AUTH_MESSAGES[kind]}
    </p>
  );
}

/** The code form; after a refusal it keeps what was typed, so a typo can be fixed in place. */
function CodeEntry({ typed, invalid }: { typed?: string; invalid?: boolean }) {
  return (
    <form method="get" action="/verify" className={styles.entry}>
      <label htmlFor="code">Code shown by your agent</label>
      <input
        id="code"
        name="code"
        defaultValue={typed}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="BCDF-GHJK"
        required
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? "code-error" : undefined}
      />
      <button type="submit" className={styles.button}>
        Continue
      </button>
    </form>
  );
}

function NoProviders({ devLoginElsewhere }: { devLoginElsewhere: boolean }) {
  return (
    <div className={styles.error} role="alert" data-notice="noProviders">
      <p>No sign-in method is configured on this server, so no device can be approved yet. The operator must set either:</p>
      <ul>
        <li><code>AUTH_GITHUB_ID</code> and <code>AUTH_GITHUB_SECRET</code> (a GitHub OAuth app), or</li>
        <li><code>AUTH_OIDC_ISSUER</code>, <code>AUTH_OIDC_ID</code> and <code>AUTH_OIDC_SECRET</code> (any OpenID Connect provider; <code>AUTH_OIDC_NAME</code> names its button),</li>
      </ul>
      <p>then restart htmldrop. For development on your own machine, <code>AUTH_DEV_LOGIN=true</code> with a loopback <code>PUBLIC_URL</code> enables a username sign-in.</p>
      {devLoginElsewhere ? <p>The local username sign-in is on, but it only answers at a loopback address such as http://localhost.</p> : null}
    </div>
  );
}

function SignIn({ methods, callbackPath }: { methods: SignInMethod[]; callbackPath: string }) {
  return (
    <section className={styles.step}>
      <h2>Sign in to approve</h2>
      <p>
        Sign-in methods on this server: <span data-testid="providers">{methods.map((method) => method.name).join(", ")}</span>.
      </p>
      <a className={styles.button} href={signInPath(callbackPath)}>
        Sign in
      </a>
    </section>
  );
}

function Approve({ flow, user, callbackPath }: { flow: DeviceAuthView; user: SessionUser; callbackPath: string }) {
  const may = flow.scopes.map((scope) => SCOPE_DESCRIPTIONS[scope].charAt(0).toLowerCase() + SCOPE_DESCRIPTIONS[scope].slice(1)).join("; ");
  return (
    <section className={styles.step}>
      <p>
        Signed in as <strong>{user.login ?? user.userId}</strong> ({user.provider}). <a href={signOutPath(callbackPath)}>Not you? Sign out</a>
      </p>
      <p data-testid="grant">
        {`Approving gives this device its own API token for your account ${user.login ?? user.userId}, labelled “${flow.label ?? "(no label)"}”, that may ${may}. It works until you revoke it on your `}
        <a href="/dashboard/tokens">tokens page</a>.
      </p>
      <div className={styles.decision}>
        <form action={approveDeviceAction}>
          <input type="hidden" name="code" value={flow.code} />
          <button type="submit" className={styles.button}>
            Approve this device
          </button>
        </form>
        <form action={denyDeviceAction}>
          <input type="hidden" name="code" value={flow.code} />
          <button type="submit" className={styles.deny}>
            Deny
          </button>
        </form>
      </div>
      <p className={styles.muted}>Did not ask for this, or the code differs from your agent&apos;s? Deny: the device gets nothing and stops asking.</p>
    </section>
  );
}

/** What approving grants, in plain words, and what the device will not be able to do. */
function RequestedScopes({ scopes }: { scopes: Scope[] }) {
  const withheld = SCOPES.filter((scope) => !scopes.includes(scope));
  return (
    <div data-testid="scopes">
      <p>If you approve, it may:</p>
      <ul className={styles.scopes}>
        {scopes.map((scope) => (
          <li key={scope} data-scope={scope}>
            {SCOPE_DESCRIPTIONS[scope]} <code className={styles.scopeName}>{scope}</code>
          </li>
        ))}
      </ul>
      {withheld.length > 0 ? (
        <p className={styles.muted} data-testid="withheld-scopes">
          It did not ask to, and will not be able to: {withheld.map((scope) => SCOPE_DESCRIPTIONS[scope].toLowerCase()).join("; ")}.
        </p>
      ) : null}
    </div>
  );
}

function FlowBody({ flow, user, methods, devLoginElsewhere }: { flow: DeviceAuthView; user: SessionUser | null; methods: SignInMethod[]; devLoginElsewhere: boolean }) {
  const callbackPath = verifyPath(flow.code);
  if (flow.state === "expired") return <Notice kind="expired" tone="error" />;
  if (flow.state === "denied") return <Notice kind="denied" tone="ok" />;
  if (flow.state === "approved") {
    return user && user.userId === flow.approvedByUserId ? <Notice kind="approved" tone="ok" /> : <Notice kind="alreadyUsed" tone="error" />;
  }
  if (user) return <Approve flow={flow} user={user} callbackPath={callbackPath} />;
  return methods.length > 0 ? <SignIn methods={methods} callbackPath={callbackPath} /> : <NoProviders devLoginElsewhere={devLoginElsewhere} />;
}

export default async function VerifyPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const code = typeof params.code === "string" ? params.code.trim().slice(0, 32) : "";
  const notice = isDeviceAuthMessageKey(params.notice) && ["rateLimited", "unavailable", "signedOut"].includes(params.notice) ? params.notice : null;
  const requestHeaders = await headers();
  const loopbackHost = isLoopbackRequest(requestHeaders);
  const methods = signInMethods({ loopbackHost });
  const devLoginElsewhere = methods.length === 0 && !loopbackHost && signInMethods({ loopbackHost: true }).length > 0;

  let flow: DeviceAuthView | null = null;
  let refused: ReturnType<typeof refusalNotice> = null;
  if (code) {
    try {
      flow = await describeDeviceAuth({ code, clientKey: clientKeyFromHeaders(requestHeaders) });
    } catch (error) {
      refused = refusalNotice(error);
      if (!refused) throw error;
    }
  }
  const user = flow ? await getSessionUser() : null;

  return (
    <main className={styles.page}>
      <h1>Approve a device</h1>
      {notice ? <Notice kind={notice} tone="error" /> : null}
      {refused ? (
        <>
          <Notice kind={refused} tone="error" />
          <CodeEntry typed={code} />
        </>
      ) : null}
      {!code ? (
        <>
          <p>An agent asked you to sign in to htmldrop. Enter the code it shows.</p>
          <CodeEntry />
        </>
      ) : null}
      {code && !flow && !refused ? (
        <>
          <p className={styles.error} role="alert" data-notice="invalidCode" id="code-error">
            {DEVICE_AUTH_MESSAGES.invalidCode}
          </p>
          <CodeEntry typed={code} invalid />
        </>
      ) : null}
      {flow ? (
        <>
          <div className={styles.device}>
            <p>Check that your agent shows this code:</p>
            <p className={styles.code} data-testid="code">
              {flow.code}
            </p>
            <p>
              Device: <strong data-testid="label">{flow.label ?? "(no label)"}</strong>
            </p>
            {flow.state === "pending" ? (
              <>
                <RequestedScopes scopes={flow.scopes} />
                <CodeExpiry expiresAt={flow.expiresAt} renderedAt={now()} />
              </>
            ) : null}
          </div>
          <FlowBody flow={flow} user={user} methods={methods} devLoginElsewhere={devLoginElsewhere} />
        </>
      ) : null}
    </main>
  );
}
