import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { SCOPE_DESCRIPTIONS } from "@/lib/accounts/scopes";
import { isLoopbackRequest } from "@/lib/auth/loopback";
import { signInMethods } from "@/lib/auth/next-auth";
import { getSessionUser, signInPath, signOutPath } from "@/lib/auth/session";
import { describeConsent, interactionBelongsToBrowser, isInteractionUid } from "@/lib/oauth/consent";
import { consentPath } from "@/lib/oauth/endpoints";
import styles from "./consent.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect an app", robots: { index: false } };

function Refusal({ children, notice }: { children: React.ReactNode; notice: string }) {
  return (
    <main className={styles.page}>
      <h1>Connect an app</h1>
      <div className={styles.error} role="alert" data-notice={notice}>
        {children}
      </div>
    </main>
  );
}

export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  if (!isInteractionUid(uid)) return <Refusal notice="unknown">This connection request does not exist. Start again from your app.</Refusal>;
  // The request must come from the browser that started it, or a link could make you approve someone else's.
  if (!interactionBelongsToBrowser(uid, await cookies())) {
    return <Refusal notice="otherBrowser">This connection request was started in another browser. Start again from your app, in this browser.</Refusal>;
  }
  const consent = await describeConsent(uid);
  if (!consent) return <Refusal notice="expired">This connection request has expired or was already answered. Start again from your app.</Refusal>;
  if (consent.refusal) return <Refusal notice="redirectRefused">This app cannot be connected: {consent.refusal}.</Refusal>;

  const user = await getSessionUser();
  const callbackPath = consentPath(uid);
  if (!user) {
    const methods = signInMethods({ loopbackHost: isLoopbackRequest(await headers()) });
    return (
      <main className={styles.page}>
        <h1>Connect an app</h1>
        <p>An app asks to connect to your htmldrop account. Sign in first; nothing is shared until you approve.</p>
        {methods.length > 0 ? (
          <a className={styles.button} href={signInPath(callbackPath)}>
            Sign in
          </a>
        ) : (
          <div className={styles.error} role="alert" data-notice="noProviders">
            No sign-in method is configured on this server; the operator must set one up (see the README).
          </div>
        )}
      </main>
    );
  }

  return (
    <main className={styles.page}>
      <h1>Connect an app</h1>
      <div className={styles.client}>
        <p className={styles.muted}>This app, by the name it gives itself (not verified by htmldrop):</p>
        <p className={styles.name} data-testid="client-name">
          {consent.clientName ?? "An unnamed app"}
        </p>
        <p className={styles.muted}>
          Client: <span data-testid="client-id">{consent.clientId}</span>
          <br />
          After you answer, your browser goes to <strong data-testid="redirect-target">{consent.redirectTarget}</strong>.
        </p>
      </div>
      <p>
        It asks to use your account <strong>{user.login ?? user.userId}</strong> ({user.provider}) through{" "}
        {consent.resources.map((resource) => `/${resource}`).join(" and ")} to:
      </p>
      {consent.scopes.length > 0 ? (
        <ul className={styles.scopes} data-testid="scopes">
          {consent.scopes.map((scope) => (
            <li key={scope} data-scope={scope}>
              {SCOPE_DESCRIPTIONS[scope]} <code>{scope}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p data-testid="scopes">Nothing: it asks for no permission, so it could only see which account you are.</p>
      )}
      <form method="post" action={`${callbackPath}/decision`} className={styles.actions}>
        <button type="submit" name="decision" value="approve" className={styles.approve}>
          Approve
        </button>
        <button type="submit" name="decision" value="deny" className={styles.deny}>
          Deny
        </button>
      </form>
      <p className={styles.muted}>
        Approving lets this app act for you until you revoke it on your <a href="/dashboard/tokens">tokens page</a>. Not you? <a href={signOutPath(callbackPath)}>Sign out</a>.
      </p>
    </main>
  );
}
