"use client";

import { useEffect, useState } from "react";

type SignedIn = { login: string | null } | null;

let sessionRequest: Promise<SignedIn> | null = null;

/**
 * Whether this browser has a session, from next-auth's session endpoint. Asked from the browser because
 * the pages that use it (the landing page, /docs) are rendered once for everyone and cached.
 */
export function fetchSignedIn(): Promise<SignedIn> {
  sessionRequest ??= fetch("/api/auth/session", { credentials: "same-origin" })
    .then((response) => (response.ok ? response.json() : null))
    .then((session: { user?: { login?: string | null } } | null) => (session?.user ? { login: session.user.login ?? null } : null))
    .catch(() => null);
  return sessionRequest;
}

export function useSignedIn(): SignedIn | undefined {
  const [signedIn, setSignedIn] = useState<SignedIn | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void fetchSignedIn().then((value) => current && setSignedIn(value));
    return () => {
      current = false;
    };
  }, []);
  return signedIn;
}

/**
 * "Sign in" (to the dashboard) for a visitor, "Dashboard" once the session is known. Without JavaScript
 * it stays "Sign in", whose page offers a signed-in visitor the way on.
 */
export function SessionLink({ signInHref, className }: { signInHref: string; className?: string }) {
  const signedIn = useSignedIn();
  return signedIn ? (
    <a href="/dashboard" className={className} data-testid="session-link">
      Dashboard
    </a>
  ) : (
    <a href={signInHref} className={className} data-testid="session-link">
      Sign in
    </a>
  );
}
