import { CUSTOM_EXPIRY, EXPIRY_PRESETS } from "@/lib/dashboard/expiry-form";
import { describeAftermath } from "@/lib/dashboard/expiry-wording";
import { setExpiryAction } from "../expiry-actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { CustomExpiryField } from "./custom-expiry-field";
import { ExpiryCountdown } from "./expiry-countdown";

type Props = {
  slug: string;
  expiresAt: number | undefined;
  retentionDays: number;
  renderedAt: number;
  /** Open the drop's viewer once the expiry is changed (the form on an expired drop's viewer). */
  thenOpenViewer?: boolean;
};

/** When the link stops working: its state with a countdown, a form to set or change it, and removal. */
export function ExpirySection({ slug, expiresAt, retentionDays, renderedAt, thenOpenViewer }: Props) {
  const then = thenOpenViewer ? <input type="hidden" name="then" value="viewer" /> : null;
  const isSet = expiresAt !== undefined;
  return (
    <section className={styles.card} aria-labelledby="expiry-heading">
      <h2 id="expiry-heading">Expiry</h2>
      {isSet ? (
        <ExpiryCountdown expiresAt={expiresAt} retentionDays={retentionDays} renderedAt={renderedAt} />
      ) : (
        <p data-testid="expiry-state">No expiry: the link works until you delete the drop.</p>
      )}
      <ActionForm action={setExpiryAction} label={isSet ? "Change expiry" : "Set expiry"} submitLabel={isSet ? "Change expiry" : "Set expiry"} statusId="expiry-result">
        <input type="hidden" name="slug" value={slug} />
        {then}
        <fieldset className={styles.choices}>
          <legend>{isSet ? "New expiry" : "The link stops working"}</legend>
          {EXPIRY_PRESETS.map((preset) => (
            <label key={preset.value} className={styles.choice}>
              <input type="radio" name="expiry" value={preset.value} required />
              <span>{preset.label}</span>
            </label>
          ))}
          <label className={styles.choice}>
            <input type="radio" name="expiry" value={CUSTOM_EXPIRY} required />
            <span>At a date and time</span>
          </label>
          <CustomExpiryField choiceName="expiry" choiceValue={CUSTOM_EXPIRY} describedBy="expiry-result" />
        </fieldset>
        <p className={styles.muted}>{describeAftermath(retentionDays)}</p>
      </ActionForm>
      {isSet ? (
        <ActionForm action={setExpiryAction} label="Remove expiry" submitLabel="Remove expiry" tone="secondary">
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="intent" value="remove" />
          {then}
        </ActionForm>
      ) : null}
    </section>
  );
}
