import type { Metadata } from "next";
import { cookies } from "next/headers";
import { PageFrame } from "@/app/_components/page-frame";
import styles from "@/app/_components/auth.module.css";
import { callbackTarget } from "@/lib/auth/callback-target";
import { readCsrfToken } from "@/lib/auth/csrf";
import { getSessionUser, signInPath, signOutPath } from "@/lib/auth/session";
import { SIGN_IN_ERRORS } from "@/lib/auth/sign-in-messages";
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign out", robots: { index: false } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignOutPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const jar = await cookies();
  const callbackPath = callbackTarget(params.callbackUrl, jar, "/");
  const user = await getSessionUser();
  if (!user) {
    return (
      <PageFrame title="Signed out">
        <p role="status">You are not signed in on this browser.</p>
        <div className={styles.actions}>
          <a className={styles.button} href={signInPath("/dashboard")}>
            Sign in
          </a>
          <a className={styles.secondary} href="/">
            Home
          </a>
        </div>
      </PageFrame>
    );
  }
  const csrfToken = readCsrfToken(jar, getConfig().authSecret);
  return (
    <PageFrame title="Sign out">
      <p>
        You are signed in as <strong data-testid="signed-in-as">{user.login ?? user.userId}</strong>. Signing out ends this browser&apos;s session; your agents&apos;
        tokens keep working until you revoke them on the <a href="/dashboard/tokens">tokens page</a>.
      </p>
      {csrfToken ? (
        <form method="post" action="/api/auth/signout" className={styles.actions}>
          <input type="hidden" name="csrfToken" value={csrfToken} />
          <input type="hidden" name="callbackUrl" value={new URL(callbackPath, getConfig().publicUrl).href} />
          <button type="submit" className={styles.button}>
            Sign out
          </button>
          <a className={styles.secondary} href={callbackPath}>
            Stay signed in
          </a>
        </form>
      ) : (
        <>
          <p className={styles.alert} role="alert">
            {SIGN_IN_ERRORS.Cookies}
          </p>
          <a className={styles.button} href={signOutPath(callbackPath)}>
            Try again
          </a>
        </>
      )}
    </PageFrame>
  );
}
