import { formatTime } from "@/lib/dashboard/format";
import type { DeliveryJson, WebhookJson } from "@/lib/schemas/webhooks";
import { deleteWebhookAction, enableWebhookAction, retryDeliveryAction, testWebhookAction } from "../webhook-actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";

const STATUS_WORDS = { pending: "retrying", succeeded: "delivered", failed: "failed" } as const;

function DeliveryLog({ webhook, deliveries }: { webhook: WebhookJson; deliveries: DeliveryJson[] }) {
  if (deliveries.length === 0) return <p className={styles.muted}>Nothing sent yet. Send a test event to see the log.</p>;
  return (
    <table className={styles.table} data-testid="delivery-log" aria-label={`Deliveries to ${webhook.url}`}>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Duration</th>
          <th scope="col">Attempt</th>
          <th scope="col">
            <span className={styles.muted}>Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => {
          const last = delivery.log.at(-1);
          return (
            <tr key={delivery.id} data-delivery-id={delivery.id}>
              <td data-label="Time">{formatTime(last?.at ?? delivery.created_at)}</td>
              <th scope="row" data-label="Event">
                <code>{delivery.type}</code>
              </th>
              <td data-label="Status">
                {STATUS_WORDS[delivery.status]}
                {last ? ` · ${last.status_code ?? last.error ?? "no answer"}` : ""}
                {delivery.next_attempt_at !== undefined ? <span className={styles.muted}> · next {formatTime(delivery.next_attempt_at)}</span> : null}
              </td>
              <td data-label="Duration">{last ? `${last.duration_ms} ms` : "–"}</td>
              <td data-label="Attempt">{delivery.attempts}</td>
              <td data-label="Actions">
                <ActionForm action={retryDeliveryAction} submitLabel="Send again" tone="secondary" label={`Send ${delivery.type} again`} className={styles.inlineForm}>
                  <input type="hidden" name="id" value={webhook.id} />
                  <input type="hidden" name="delivery_id" value={delivery.id} />
                </ActionForm>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** One endpoint: where it points, what it receives, whether it is on, its actions and its delivery log. */
export function WebhookCard({ webhook, deliveries }: { webhook: WebhookJson; deliveries: DeliveryJson[] }) {
  return (
    <section className={styles.card} aria-label={`Endpoint ${webhook.url}`} data-webhook-id={webhook.id}>
      <h2 className={styles.mono} style={{ overflowWrap: "anywhere" }}>
        {webhook.url}
      </h2>
      {webhook.description ? <p>{webhook.description}</p> : null}
      <ul className={styles.tags} aria-label="Events">
        {webhook.events.map((type) => (
          <li key={type} className={styles.tag}>
            {type}
          </li>
        ))}
      </ul>
      {webhook.drops ? <p data-testid="webhook-drops">Only these drops: {webhook.drops.join(", ")}</p> : null}
      {webhook.metadata ? (
        <p data-testid="webhook-metadata">
          Only drops tagged{" "}
          {Object.entries(webhook.metadata)
            .map(([key, value]) => `${key}=${value}`)
            .join(", ")}
        </p>
      ) : null}
      {webhook.enabled ? null : (
        <p className={styles.noticeError} role="alert">
          Disabled {webhook.disabled_at ? formatTime(webhook.disabled_at) : ""}: {webhook.disabled_reason} Nothing is sent to it until you enable it again.
        </p>
      )}
      <div className={styles.rowActions}>
        <ActionForm action={testWebhookAction} submitLabel="Send a test event" tone="secondary" label={`Send a test event to ${webhook.url}`}>
          <input type="hidden" name="id" value={webhook.id} />
        </ActionForm>
        {webhook.enabled ? null : (
          <ActionForm action={enableWebhookAction} submitLabel="Enable again" label={`Enable ${webhook.url} again`}>
            <input type="hidden" name="id" value={webhook.id} />
          </ActionForm>
        )}
        <ActionForm action={deleteWebhookAction} submitLabel="Delete endpoint" tone="danger" label={`Delete ${webhook.url}`}>
          <input type="hidden" name="id" value={webhook.id} />
        </ActionForm>
      </div>
      <h3>Delivery log</h3>
      <DeliveryLog webhook={webhook} deliveries={deliveries} />
    </section>
  );
}
