import type { Metadata } from "next";
import { FULL_GRANT } from "@/lib/accounts/credentials";
import { listTokens } from "@/lib/accounts/tokens";
import { now } from "@/lib/clock";
import { dashboardNotice } from "@/lib/dashboard/messages";
import { DEFAULT_EXPIRY, EXPIRY_CHOICES_DAYS, listDropChoices, TOKEN_LIFETIMES } from "@/lib/dashboard/token-form";
import { requireSessionUser } from "@/lib/auth/session";
import styles from "../dashboard.module.css";
import { NewTokenForm } from "../ui/new-token-form";
import { Notice } from "../ui/notice";
import { TokenTable } from "../ui/token-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Tokens" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** `?revoked=shown` lists revoked tokens too; by default they are left out, as they no longer work. */
const SHOW_REVOKED = "shown";

export default async function TokensPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireSessionUser("/dashboard/tokens");
  const params = await searchParams;
  const [tokens, drops] = await Promise.all([listTokens(user.userId, FULL_GRANT), listDropChoices(user.userId)]);
  const showRevoked = params.revoked === SHOW_REVOKED;
  const revoked = tokens.filter((token) => token.revoked_at !== null).length;
  return (
    <main>
      <h1>API tokens</h1>
      <p className={styles.muted}>
        Each machine your agents sign in from holds its own token. Revoke the token of a machine you lost or no longer use; the others keep working.
        Tokens are shown only once, when they are made; here you see their ids, scopes, drops and expiry. Apps you connected by URL
        (Claude, ChatGPT, VS Code…) are listed here too, by the name they gave themselves.
      </p>
      <p className={styles.muted} data-testid="token-lifetimes">
        {TOKEN_LIFETIMES.here(DEFAULT_EXPIRY)} {TOKEN_LIFETIMES.deviceCode}
      </p>
      <Notice message={dashboardNotice(params.notice)} />
      <TokenTable tokens={showRevoked ? tokens : tokens.filter((token) => token.revoked_at === null)} now={now()} />
      {revoked > 0 ? (
        <p>
          {showRevoked ? (
            <a href="/dashboard/tokens">Hide revoked tokens</a>
          ) : (
            <a href={`/dashboard/tokens?revoked=${SHOW_REVOKED}`}>
              Show revoked tokens ({revoked})
            </a>
          )}
        </p>
      ) : null}
      <NewTokenForm drops={drops} expiryDays={EXPIRY_CHOICES_DAYS} defaultExpiry={DEFAULT_EXPIRY} lifetimeHelp={TOKEN_LIFETIMES.here(DEFAULT_EXPIRY)} />
    </main>
  );
}
