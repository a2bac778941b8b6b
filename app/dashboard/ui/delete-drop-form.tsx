import { deleteDropAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";

/** Deleting asks twice: open the disclosure, then confirm. */
export function DeleteDropForm({ slug, title }: { slug: string; title: string }) {
  return (
    <section className={`${styles.card} ${styles.dangerZone}`} aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete this drop</h2>
      <ActionForm action={deleteDropAction} label="Delete drop" submitLabel="Yes, delete this drop and every version" tone="danger" fold={{ summary: "Delete this drop…", className: styles.confirm }}>
        <input type="hidden" name="slug" value={slug} />
        <p>
          “{title}” and all its versions will be removed and its links will stop working. This cannot be undone.
        </p>
      </ActionForm>
    </section>
  );
}
