import { formatTime } from "@/lib/dashboard/format";
import type { TokenListItemJson } from "@/lib/schemas/accounts";
import { revokeTokenAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { RelativeTime } from "./relative-time";
import { dashboardDropPath } from "@/lib/dashboard/paths";

function Scopes({ scopes }: { scopes: string[] }) {
  if (scopes.length === 0) return <span className={styles.muted}>none</span>;
  return (
    <ul className={styles.tags}>
      {scopes.map((scope) => (
        <li key={scope} className={styles.tag}>
          {scope}
        </li>
      ))}
    </ul>
  );
}

function Drops({ drops }: { drops: string[] | null }) {
  if (drops === null) return <span className={styles.muted}>every drop</span>;
  return (
    <ul className={styles.tags} aria-label="Only these drops">
      {drops.map((slug) => (
        <li key={slug}>
          <a className={styles.tag} href={dashboardDropPath(slug)}>
            {slug}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function TokenTable({ tokens, now }: { tokens: TokenListItemJson[]; now: number }) {
  if (tokens.length === 0) {
    return <p className={styles.card}>No working tokens. An agent gets one by signing in with a device code (see /api/onboard), or create one below.</p>;
  }
  return (
    <table className={styles.table} data-testid="token-table">
      <thead>
        <tr>
          <th scope="col">Label</th>
          <th scope="col">Id</th>
          <th scope="col">Access</th>
          <th scope="col">Expires</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => {
          const expired = token.expires_at !== null && token.expires_at <= now;
          return (
            <tr key={token.id} data-token-id={token.id}>
              <th scope="row" data-label="Label">
                {token.label ?? <span className={styles.muted}>(no label)</span>}
                {token.kind === "oauth" ? <span className={styles.badge}>Connected app</span> : null}
                {token.minted_by ? (
                  <div className={styles.muted} data-testid="token-minted-by">
                    made by {tokens.find((minter) => minter.id === token.minted_by)?.label ?? token.minted_by} ({token.minted_by}); revoking that revokes this
                  </div>
                ) : null}
              </th>
              <td data-label="Id" className={styles.mono}>
                {token.id}
              </td>
              <td data-label="Access">
                <div data-testid="token-scopes">
                  <Scopes scopes={token.scopes} />
                </div>
                <div data-testid="token-drops" className={styles.access}>
                  <Drops drops={token.drops} />
                </div>
              </td>
              <td data-label="Expires" data-testid="token-expires">
                {token.expires_at === null ? "never" : formatTime(token.expires_at)}
              </td>
              <td data-label="Created" data-testid="token-created">
                <RelativeTime at={token.created_at} now={now} />
              </td>
              <td data-label="Last used" data-testid="token-last-used">
                <RelativeTime at={token.last_used_at} now={now} />
              </td>
              <td data-label="State">
                {token.revoked_at !== null ? (
                  <span className={styles.badge}>Revoked {formatTime(token.revoked_at)}</span>
                ) : expired ? (
                  <span className={styles.badge}>Expired</span>
                ) : (
                  <ActionForm
                    action={revokeTokenAction}
                    label={`Revoke token ${token.id}`}
                    submitLabel={`Yes, revoke ${token.id}`}
                    tone="danger"
                    fold={{
                      summary: (
                        <>
                          <span className={styles.active}>Active</span> Revoke…
                        </>
                      ),
                      className: styles.confirm,
                    }}
                  >
                    <input type="hidden" name="id" value={token.id} />
                    <p>
                      {token.kind === "oauth"
                        ? "This app loses access at once, its refresh token included. It can ask you to connect again."
                        : "Agents using this token lose access at once. They can sign in again to get a new one."}
                    </p>
                  </ActionForm>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
