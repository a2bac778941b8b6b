import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { PageFrame } from "@/app/_components/page-frame";
import styles from "@/app/_components/auth.module.css";
import { callbackTarget } from "@/lib/auth/callback-target";
import { readCsrfToken } from "@/lib/auth/csrf";
import { isLoopbackRequest } from "@/lib/auth/loopback";
import { signInMethods, type SignInMethod } from "@/lib/auth/next-auth";
import { getSessionUser, signInPath } from "@/lib/auth/session";
import { signInErrorMessage } from "@/lib/auth/sign-in-messages";
import { getConfig } from "@/lib/config";
import { LOCAL_LOGIN_PATTERN, LOCAL_LOGIN_RULE } from "@/lib/schemas/accounts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// The HTML pattern attribute is compiled with the v flag, where a literal "-" in a class needs its escape.
const LOGIN_INPUT_PATTERN = LOCAL_LOGIN_PATTERN.source.replace(/^\^|\$$/g, "").replace("_.-]", "_.\\-]");

function ProviderForm({ method, csrfToken, callbackUrl }: { method: SignInMethod; csrfToken: string; callbackUrl: string }) {
  return (
    <form method="post" action={`/api/auth/signin/${method.id}`}>
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <button type="submit" className={styles.button}>
        Sign in with {method.name}
      </button>
    </form>
  );
}

function LocalForm({ csrfToken, callbackUrl, refused }: { csrfToken: string; callbackUrl: string; refused: string | null }) {
  return (
    <form method="post" action="/api/auth/callback/credentials">
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <div className={styles.field}>
        <label htmlFor="username">Username</label>
        <input
          id="username"
          name="username"
          required
          maxLength={39}
          pattern={LOGIN_INPUT_PATTERN}
          title={LOCAL_LOGIN_RULE}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? "username-rule username-error" : "username-rule"}
        />
        <p id="username-rule" className={styles.hint}>
          {LOCAL_LOGIN_RULE} For development on this machine: no password, the name is the account.
        </p>
        {refused ? (
          <p id="username-error" className={styles.error} role="alert">
            {refused}
          </p>
        ) : null}
      </div>
      <button type="submit" className={styles.button}>
        Sign in with a local username
      </button>
    </form>
  );
}

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const jar = await cookies();
  const callbackPath = callbackTarget(params.callbackUrl, jar, "/dashboard");
  const csrfToken = readCsrfToken(jar, getConfig().authSecret);
  // A first visit straight to /signin: next-auth issues the cookies, then comes back here once.
  if (!csrfToken && params.error !== "Cookies") redirect(`${signInPath(callbackPath)}&error=Cookies`);
  const callbackUrl = new URL(callbackPath, getConfig().publicUrl).href;
  const error = csrfToken && params.error === "Cookies" ? null : signInErrorMessage(params.error);
  const localRefused = params.error === "CredentialsSignin" ? error : null;

  const methods = signInMethods({ loopbackHost: isLoopbackRequest(await headers()) });
  const providers = methods.filter((method) => method.id !== "credentials");
  const local = methods.some((method) => method.id === "credentials");
  const user = await getSessionUser();

  return (
    <PageFrame title="Sign in">
      <p>Sign in to manage your drops, create tokens and approve your agents.</p>
      {user ? (
        <p className={styles.ok} role="status">
          You are already signed in as <strong>{user.login ?? user.userId}</strong>. <a href={callbackPath}>Continue</a>
        </p>
      ) : null}
      {error && !localRefused ? (
        <p className={styles.alert} role="alert" data-notice="sign-in-error">
          {error}
        </p>
      ) : null}
      {csrfToken && providers.length > 0 ? (
        <section className={styles.card} aria-label="Sign-in providers">
          <div className={styles.actions}>
            {providers.map((method) => (
              <ProviderForm key={method.id} method={method} csrfToken={csrfToken} callbackUrl={callbackUrl} />
            ))}
          </div>
        </section>
      ) : null}
      {csrfToken && local ? (
        <section className={styles.card}>
          <h2>Local username</h2>
          <LocalForm csrfToken={csrfToken} callbackUrl={callbackUrl} refused={localRefused} />
        </section>
      ) : null}
      {methods.length === 0 ? (
        <p className={styles.alert} role="alert" data-notice="noProviders">
          No sign-in method is configured on this server. Its operator must set up GitHub or an OpenID Connect provider (see the README).
        </p>
      ) : null}
      <p className={styles.hint}>
        <a href="/">Back to htmldrop</a>
      </p>
    </PageFrame>
  );
}
