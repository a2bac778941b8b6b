"use client";

import { EVENT_DESCRIPTIONS, EVENT_TYPES } from "@/lib/events/types";
import type { NewWebhookState } from "@/lib/dashboard/webhook-form";
import { CopyButton } from "@/app/_components/copy-button";
import { createWebhookAction } from "../webhook-actions";
import styles from "../dashboard.module.css";
import { SubmitRow } from "./submit-row";
import { FormStatus, useActionForm } from "./action-form";

/** What a new endpoint gets unless the owner unchecks it: the changes people usually wait for. */
const DEFAULT_EVENTS = new Set(["version.created", "comment.created"]);

/**
 * "Add endpoint": URL, description and events. A plain form without JavaScript (the page comes back with
 * the result); with it, the result appears in place. The signing secret is shown here once.
 */
export function NewWebhookForm() {
  const { state, pending, shown, formProps } = useActionForm<NewWebhookState>(createWebhookAction, true);
  return (
    <section className={styles.card} aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">Add endpoint</h2>
      <form {...formProps} aria-label="Add endpoint">
        <div className={styles.control}>
          <label htmlFor="webhook-url">URL</label>
          <input id="webhook-url" name="url" type="url" required maxLength={2000} placeholder="https://example.com/hooks/htmldrop" autoComplete="off" />
        </div>
        <div className={styles.control}>
          <label htmlFor="webhook-description">Description (optional)</label>
          <input id="webhook-description" name="description" maxLength={500} placeholder="CI: rebuild the docs site" autoComplete="off" />
        </div>
        <fieldset className={styles.choices}>
          <legend>Events</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type} className={styles.choice}>
              <input type="checkbox" name="events" value={type} defaultChecked={DEFAULT_EVENTS.has(type)} />
              <span>
                <code>{type}</code> <span className={styles.muted}>{EVENT_DESCRIPTIONS[type]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <SubmitRow pending={pending} label="Add endpoint" />
        <FormStatus state={state} shown={shown} />
      </form>
      {state.created ? (
        <section className={styles.secret} aria-labelledby="new-webhook-secret-heading" data-testid="new-webhook">
          <h3 id="new-webhook-secret-heading">Signing secret of {state.created.url}</h3>
          <p>
            <strong>Copy it now.</strong> It is shown only this once. Your receiver verifies each delivery&apos;s <code>webhook-signature</code> with it (any Standard Webhooks library does).
          </p>
          <div className={styles.field}>
            <code className={styles.secretValue} data-testid="new-webhook-secret">
              {state.created.secret}
            </code>
            <CopyButton value={state.created.secret} label="signing secret" className={styles.secondary} />
          </div>
        </section>
      ) : null}
    </section>
  );
}
