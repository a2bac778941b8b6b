import { canonicalTags, formatTagLines } from "@/lib/dashboard/forms";
import type { DropJson } from "@/lib/schemas/drops";
import { editDropAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { PostedInput, PostedTextarea } from "./posted-fields";

/**
 * Title, description and tags. Only changed fields are sent (PATCH semantics); no new version is made.
 * The hidden fields stay the server's elements: React leaves them as they are when the form draws again.
 */
export function EditDropForm({ drop }: { drop: DropJson }) {
  return (
    <section className={styles.card} aria-labelledby="details-heading">
      <h2 id="details-heading">Details and tags</h2>
      <ActionForm action={editDropAction} label="Edit details and tags" submitLabel="Save changes">
        <input type="hidden" name="slug" value={drop.slug} />
        <input type="hidden" name="original_title" value={drop.title} />
        <input type="hidden" name="original_description" value={drop.description ?? ""} />
        <input type="hidden" name="original_tags" value={canonicalTags(drop.metadata)} />
        <fieldset className={styles.fieldset}>
          <legend className={styles.visuallyHidden}>Details</legend>
          <div className={styles.control}>
            <label htmlFor="title">Title</label>
            <PostedInput id="title" name="title" defaultValue={drop.title} required maxLength={200} />
          </div>
          <div className={styles.control}>
            <label htmlFor="description">Description</label>
            <PostedTextarea id="description" name="description" defaultValue={drop.description ?? ""} rows={2} maxLength={500} />
          </div>
          <div className={styles.control}>
            <label htmlFor="tags-edit">Tags</label>
            <PostedTextarea id="tags-edit" name="tags" defaultValue={formatTagLines(drop.metadata)} rows={4} aria-describedby="tags-edit-help" className={styles.mono} spellCheck={false} />
            <small id="tags-edit-help" className={styles.muted}>
              One key=value per line, at most 10. Tags are private to you; agents can filter by them. Empty clears them.
            </small>
          </div>
        </fieldset>
      </ActionForm>
    </section>
  );
}
