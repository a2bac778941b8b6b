import type { Metadata } from "next";
import { cookies } from "next/headers";
import { PageFrame } from "@/app/_components/page-frame";
import styles from "@/app/_components/auth.module.css";
import { callbackTarget } from "@/lib/auth/callback-target";
import { signInPath } from "@/lib/auth/session";
import { signInErrorPageMessage } from "@/lib/auth/sign-in-messages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign-in failed", robots: { index: false } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** next-auth's failures a retry on the sign-in page cannot fix by itself (a misconfigured provider, a refusal). */
export default async function SignInErrorPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackPath = callbackTarget(undefined, await cookies(), "/dashboard");
  return (
    <PageFrame title="Sign-in failed">
      <p className={styles.alert} role="alert" data-notice="sign-in-failed">
        {signInErrorPageMessage(params.error)}
      </p>
      <div className={styles.actions}>
        <a className={styles.button} href={signInPath(callbackPath)}>
          Try again
        </a>
        <a className={styles.secondary} href="/">
          Home
        </a>
      </div>
    </PageFrame>
  );
}
