import styles from "./viewer.module.css";

/** A 404 for a version (or a comparison) of a drop the reader may see: the way to the latest. Never the title. */
export function MissingVersion({ slug }: { slug: string }) {
  return (
    <main className={styles.missing}>
      <h1>This version does not exist</h1>
      <p>It may have been deleted, or the link may have a typing mistake in it.</p>
      <p>
        <a href={`/p/${slug}`}>See the latest version</a>
      </p>
    </main>
  );
}
