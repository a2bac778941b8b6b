import { formatTime } from "@/lib/dashboard/format";
import type { TokenListItemJson } from "@/lib/schemas/accounts";
import { revokeTokenAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";

export function TokenTable({ tokens }: { tokens: TokenListItemJson[] }) {
  if (tokens.length === 0) {
    return <p className={styles.card}>No tokens yet. An agent gets one by signing in with a device code (see /api/onboard).</p>;
  }
  return (
    <table className={styles.table} data-testid="token-table">
      <thead>
        <tr>
          <th scope="col">Label</th>
          <th scope="col">Id</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => (
          <tr key={token.id} data-token-id={token.id}>
            <th scope="row" data-label="Label">
              {token.label ?? <span className={styles.muted}>(no label)</span>}
            </th>
            <td data-label="Id" className={styles.mono}>
              {token.id}
            </td>
            <td data-label="Created">{formatTime(token.created_at)}</td>
            <td data-label="Last used">{formatTime(token.last_used_at)}</td>
            <td data-label="State">
              {token.revoked_at !== null ? (
                <span className={styles.badge}>Revoked {formatTime(token.revoked_at)}</span>
              ) : (
                <details className={styles.confirm}>
                  <summary>
                    <span className={styles.active}>Active</span> Revoke…
                  </summary>
                  <ActionForm action={revokeTokenAction} label={`Revoke token ${token.id}`} submitLabel={`Yes, revoke ${token.id}`} tone="danger">
                    <input type="hidden" name="id" value={token.id} />
                    <p>Agents using this token lose access at once. They can sign in again to get a new one.</p>
                  </ActionForm>
                </details>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
