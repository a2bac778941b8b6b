import type { Metadata } from "next";
import { listTokens } from "@/lib/accounts/tokens";
import { dashboardNotice } from "@/lib/dashboard/messages";
import { requireSessionUser } from "@/lib/auth/session";
import styles from "../dashboard.module.css";
import { Notice } from "../ui/notice";
import { TokenTable } from "../ui/token-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Tokens" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function TokensPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireSessionUser("/dashboard/tokens");
  const tokens = await listTokens(user.userId);
  return (
    <main>
      <h1>API tokens</h1>
      <p className={styles.muted}>
        Each machine your agents sign in from holds its own token. Revoke the token of a machine you lost or no longer use; the others keep working.
        Tokens are shown only once, to the agent; here you see their ids.
      </p>
      <Notice message={dashboardNotice((await searchParams).notice)} />
      <TokenTable tokens={tokens} />
    </main>
  );
}
