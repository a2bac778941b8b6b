"use client";

import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/accounts/scopes";
import { formatTime } from "@/lib/dashboard/format";
import type { DropChoice, NewTokenState } from "@/lib/dashboard/token-form";
import { createTokenAction } from "../actions";
import styles from "../dashboard.module.css";
import { ResultFold } from "./result-fold";
import { SubmitRow } from "./submit-row";
import { CopyButton } from "@/app/_components/copy-button";
import { FormStatus, useActionForm } from "./action-form";

type Props = { drops: DropChoice[]; expiryDays: readonly number[]; defaultExpiry: string; /** How long a token made here lasts unless chosen otherwise. */ lifetimeHelp: string };

/** Read and write by default; managing tokens is opt-in, since a token that has it can mint others. */
const DEFAULT_SCOPES = new Set(["drops:read", "drops:write"]);

/** The secret, once, with what to paste where. */
function CreatedToken({ created }: { created: NonNullable<NewTokenState["created"]> }) {
  return (
    <section className={styles.secret} aria-labelledby="new-token-heading" data-testid="new-token">
      <h3 id="new-token-heading">Your new token{created.label ? `: ${created.label}` : ""}</h3>
      <p>
        <strong>Copy it now.</strong> It is shown only this once; htmldrop keeps only its hash.
      </p>
      <div className={styles.field}>
        <code className={styles.secretValue} data-testid="new-token-value">
          {created.token}
        </code>
        <CopyButton value={created.token} label="new token" className={styles.secondary} />
      </div>
      <p className={styles.muted} data-testid="new-token-limits">
        Id <span className={styles.mono}>{created.id}</span> · {created.scopes.join(", ")} · {created.drops ? `only ${created.drops.join(", ")}` : "every drop"} ·{" "}
        {created.expires_at === null ? "never expires" : `expires ${formatTime(created.expires_at)}`}
      </p>
      <h4>MCP client configuration</h4>
      <p className={styles.muted}>
        For <code>.mcp.json</code> (Claude Code), Cursor&apos;s <code>mcp.json</code> and similar; VS Code names the top-level key <code>servers</code>.
      </p>
      <pre className={styles.snippet} data-testid="mcp-snippet">
        {created.snippets.mcp}
      </pre>
      <CopyButton value={created.snippets.mcp} label="MCP configuration" className={styles.secondary} />
      <h4>Command line</h4>
      <pre className={styles.snippet} data-testid="cli-snippet">
        {created.snippets.cli}
      </pre>
      <CopyButton value={created.snippets.cli} label="command-line snippet" className={styles.secondary} />
    </section>
  );
}

/**
 * "New token": label, scopes, drops and expiry. A plain form that works without JavaScript (the page
 * comes back with the result); with it, the result appears in place and the token table refreshes.
 */
export function NewTokenForm({ drops, expiryDays, defaultExpiry, lifetimeHelp }: Props) {
  const { state, pending, shown, formProps } = useActionForm<NewTokenState>(createTokenAction, true);
  // Refused, the form shows the choices as posted; without JavaScript the page is drawn anew from them.
  const values = state.status === "error" ? state.values : undefined;
  const someDrops = values?.dropLimit === "some";
  return (
    <section className={styles.card} aria-labelledby="new-token-form-heading">
      <h2 id="new-token-form-heading">New token</h2>
      <p className={styles.muted}>For a script, a CI job or an MCP client: give it only what it needs.</p>
      {/* Folded under a button, the list comes first. */}
      <ResultFold state={state} summary="Create a token…" className={styles.fold} summaryClassName={styles.primary}>
        <form {...formProps} aria-label="New token">
          <div className={styles.control}>
            <label htmlFor="token-label">Label</label>
            <input id="token-label" name="label" maxLength={100} placeholder="CI: weekly report" autoComplete="off" defaultValue={values?.label} />
          </div>
          <fieldset className={styles.choices}>
            <legend>Scopes</legend>
            {SCOPES.map((scope) => (
              <label key={scope} className={styles.choice}>
                <input type="checkbox" name="scopes" value={scope} defaultChecked={values ? values.scopes.includes(scope) : DEFAULT_SCOPES.has(scope)} />
                <span>
                  {SCOPE_DESCRIPTIONS[scope]} <code className={styles.muted}>{scope}</code>
                </span>
              </label>
            ))}
          </fieldset>
          <fieldset className={styles.choices}>
            <legend>Drops</legend>
            <label className={styles.choice}>
              <input type="radio" name="drop_limit" value="all" defaultChecked={!someDrops} />
              <span>Every drop, including drops published later</span>
            </label>
            <label className={styles.choice}>
              <input type="radio" name="drop_limit" value="some" disabled={drops.length === 0} defaultChecked={someDrops} />
              <span>{drops.length === 0 ? "Only some drops (you have none yet)" : "Only the drops checked below (it cannot create new ones)"}</span>
            </label>
            {drops.length > 0 ? (
              <div className={styles.dropChoices} role="group" aria-label="Drops the token may touch">
                {drops.map((drop) => (
                  <label key={drop.slug} className={styles.choice}>
                    <input type="checkbox" name="drops" value={drop.slug} defaultChecked={values?.drops.includes(drop.slug)} />
                    <span className={styles.choiceText}>
                      {drop.title} <code className={styles.muted}>{drop.slug}</code>
                    </span>
                  </label>
                ))}
              </div>
            ) : null}
          </fieldset>
          <div className={styles.control}>
            <label htmlFor="token-expires">Expires</label>
            <select id="token-expires" name="expires" defaultValue={values?.expires ?? defaultExpiry} aria-describedby="token-expires-help">
              {expiryDays.map((days) => (
                <option key={days} value={String(days)}>
                  In {days} days
                </option>
              ))}
              <option value="never">Never</option>
            </select>
            <small id="token-expires-help" className={styles.muted}>
              {lifetimeHelp}
            </small>
          </div>
          <SubmitRow pending={pending} label="Create token" />
          <FormStatus state={state} shown={shown} />
        </form>
        {state.created ? <CreatedToken created={state.created} /> : null}
      </ResultFold>
    </section>
  );
}
