import { setPasscodeAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";

/** Set or change the passcode gate; remove it when there is one. */
export function PasscodeForms({ slug, locked }: { slug: string; locked: boolean }) {
  return (
    <section className={styles.card} aria-labelledby="passcode-heading">
      <h2 id="passcode-heading">Passcode gate</h2>
      <p data-testid="lock-state">
        {locked ? "This drop is locked: viewers must enter the passcode." : "This drop is open to anyone with the link."} A passcode is a soft
        share gate, not encryption.
      </p>
      <ActionForm action={setPasscodeAction} label={locked ? "Change passcode" : "Set passcode"} submitLabel={locked ? "Change passcode" : "Set passcode"} resetOnSuccess>
        <input type="hidden" name="slug" value={slug} />
        <div className={styles.control}>
          <label htmlFor="passcode">{locked ? "New passcode" : "Passcode"}</label>
          <input id="passcode" name="passcode" type="password" autoComplete="new-password" minLength={4} maxLength={256} required aria-describedby="passcode-help" />
          <small id="passcode-help" className={styles.muted}>
            At least 4 characters. Changing it signs out everyone who unlocked the drop before.
          </small>
        </div>
      </ActionForm>
      {locked ? (
        <ActionForm action={setPasscodeAction} label="Remove passcode" submitLabel="Remove passcode" tone="secondary">
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="intent" value="remove" />
        </ActionForm>
      ) : null}
    </section>
  );
}
