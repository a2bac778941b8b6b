"use client";

import { EVENT_DESCRIPTIONS, EVENT_TYPES } from "@/lib/events/types";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import type { NewWebhookState, WebhookField } from "@/lib/dashboard/webhook-form";
import { CopyButton } from "@/app/_components/copy-button";
import { createWebhookAction } from "../webhook-actions";
import styles from "../dashboard.module.css";
import { SubmitRow } from "./submit-row";
import { FormStatus, useActionForm } from "./action-form";
import { fieldErrors } from "./text-upload-field";

/** What a new endpoint gets unless the owner unchecks it: the changes people usually wait for. */
const DEFAULT_EVENTS = new Set(["version.created", "comment.created"]);

/**
 * "Add endpoint": URL, description, events and the optional drop and tag filters. A plain form without
 * JavaScript (the page comes back with the result, and a refused form with what was typed); with it, the
 * result appears in place. A refusal is said under the field it concerns. The signing secret is shown here once.
 */
export function NewWebhookForm({ dropsMax }: { dropsMax: number }) {
  const { state, pending, shown, formProps } = useActionForm<NewWebhookState>(createWebhookAction, true);
  const error = state.status === "error" && shown ? { field: state.field ?? ("form" as WebhookField), message: state.message } : null;
  const fieldError = fieldErrors(error, "webhook-");
  const [url, drops, metadata] = [fieldError("url"), fieldError("drops"), fieldError("metadata")];
  const values = state.status === "error" ? (state.values ?? {}) : {};
  const events = values.events ? new Set(values.events) : DEFAULT_EVENTS;
  const status = error && error.field !== "form" ? { ...state, message: DASHBOARD_MESSAGES.webhookRefused } : state;
  return (
    <section className={styles.card} aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">Add endpoint</h2>
      <form {...formProps} aria-label="Add endpoint">
        <div className={styles.control}>
          <label htmlFor="webhook-url">URL</label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            maxLength={2000}
            placeholder="https://example.com/hooks/htmldrop"
            autoComplete="off"
            defaultValue={values.url}
            {...url.inputProps}
          />
          {url.errorText}
        </div>
        <div className={styles.control}>
          <label htmlFor="webhook-description">Description (optional)</label>
          <input id="webhook-description" name="description" maxLength={500} placeholder="CI: rebuild the docs site" autoComplete="off" defaultValue={values.description} />
        </div>
        <fieldset className={styles.choices}>
          <legend>Events</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type} className={styles.choice}>
              <input type="checkbox" name="events" value={type} defaultChecked={events.has(type)} />
              <span>
                <code>{type}</code> <span className={styles.muted}>{EVENT_DESCRIPTIONS[type]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className={styles.choices}>
          <legend>Only some drops (optional)</legend>
          <div className={styles.control}>
            <label htmlFor="webhook-drops">Drops</label>
            <textarea
              id="webhook-drops"
              name="drops"
              rows={2}
              className={styles.mono}
              spellCheck={false}
              defaultValue={values.drops}
              aria-invalid={drops.errorText ? true : undefined}
              aria-describedby={drops.errorText ? `${drops.id} webhook-drops-help` : "webhook-drops-help"}
            />
            <small id="webhook-drops-help" className={styles.muted}>
              Slugs or links of your drops, separated by spaces or lines, at most {dropsMax}. Empty: every drop.
            </small>
            {drops.errorText}
          </div>
          <div className={styles.control}>
            <label htmlFor="webhook-metadata">Tags</label>
            <textarea
              id="webhook-metadata"
              name="metadata"
              rows={2}
              className={styles.mono}
              spellCheck={false}
              defaultValue={values.metadata}
              aria-invalid={metadata.errorText ? true : undefined}
              aria-describedby={metadata.errorText ? `${metadata.id} webhook-metadata-help` : "webhook-metadata-help"}
            />
            <small id="webhook-metadata-help" className={styles.muted}>
              One key=value per line: only drops carrying every one of them. Empty: any drop.
            </small>
            {metadata.errorText}
          </div>
        </fieldset>
        <SubmitRow pending={pending} label="Add endpoint" />
        <FormStatus state={status} shown={shown} />
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
