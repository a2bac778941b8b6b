"use client";

import { useEffect, useState } from "react";
import { hasSignedInHint } from "@/lib/auth/signed-in-hint";
import { dashboardManageLinkPath } from "@/lib/dashboard/paths";

/**
 * "Manage": the way from a drop's viewer to its dashboard page, for its owner and editors. A page rendered
 * for this request knows (`href`); a drop's shared cached page is the same for everyone and does not, so
 * there, in a browser that has a session, the link is asked for once the page is shown.
 */
export function ManageLink({ slug, href }: { slug: string; href: string | null }) {
  const [asked, setAsked] = useState<string | null>(null);
  useEffect(() => {
    if (href !== null || !hasSignedInHint(document.cookie)) return;
    let current = true;
    fetch(dashboardManageLinkPath(slug), { cache: "no-store", headers: { accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<{ href: unknown }>) : null))
      .then((answer) => {
        if (current && typeof answer?.href === "string") setAsked(answer.href);
      })
      // No link is the answer for a stranger too.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [slug, href]);
  const shown = href ?? asked;
  return shown ? <a href={shown}>Manage</a> : null;
}
