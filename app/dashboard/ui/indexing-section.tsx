import { INDEXING_WORDING } from "@/lib/dashboard/messages";
import { setIndexableAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";

type Props = { slug: string; indexable: boolean; locked: boolean };

/** Whether search engines may index the drop: off unless the owner ticks the box. */
export function IndexingSection({ slug, indexable, locked }: Props) {
  return (
    <section className={styles.card} aria-labelledby="indexing-heading">
      <h2 id="indexing-heading">Search engines</h2>
      <p className={styles.muted} id="indexing-help">
        {INDEXING_WORDING.byDefault}
        {locked ? " While it has a passcode it is never indexed." : ""}
      </p>
      <ActionForm action={setIndexableAction} label="Search engine indexing" submitLabel="Save indexing setting" tone="secondary">
        <input type="hidden" name="slug" value={slug} />
        <label className={styles.choice}>
          <input type="checkbox" name="indexable" defaultChecked={indexable} aria-describedby="indexing-help" />
          <span>{INDEXING_WORDING.choice}</span>
        </label>
      </ActionForm>
    </section>
  );
}
