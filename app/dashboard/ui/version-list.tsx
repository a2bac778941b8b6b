import type { ReactNode } from "react";
import type { VersionRow } from "@/lib/dashboard/drop-detail";
import { formatBytes } from "@/lib/dashboard/format";
import { viewerPath } from "@/lib/drops/public-urls";
import { deleteVersionAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { RelativeTime } from "./relative-time";

/**
 * Every version, newest first, with its context to read; each can be opened, and deleted by the owner
 * (`canDelete`; editors may not) while it is not the only one. `children` close the card (the way to a new version).
 */
export function VersionList({
  slug,
  versions,
  latest,
  renderedAt,
  canDelete,
  children,
}: {
  slug: string;
  versions: VersionRow[];
  latest: number;
  renderedAt: number;
  canDelete: boolean;
  children?: ReactNode;
}) {
  const deletable = canDelete && versions.length > 1;
  return (
    <section className={styles.card} aria-labelledby="versions-heading">
      {/* The tab above already says "Versions": the heading is for those who navigate by headings. */}
      <h2 id="versions-heading" className={styles.visuallyHidden}>
        Versions ({versions.length})
      </h2>
      {canDelete && !deletable ? <p className={styles.muted}>The only version cannot be deleted; delete the drop instead.</p> : null}
      <table className={`${styles.table} ${styles.compactRows}`} data-testid="version-table">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Size</th>
            <th scope="col">Published</th>
            <th scope="col">Context</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((version) => (
            <tr key={version.version} data-version={version.version}>
              <th scope="row" data-label="Version">
                <span>
                  v{version.version}
                  {version.version === latest ? <span className={styles.badge}>latest</span> : null}
                </span>
              </th>
              <td data-label="Size">{formatBytes(version.size_bytes)}</td>
              <td data-label="Published">
                <RelativeTime at={version.created_at} now={renderedAt} />
              </td>
              <td data-label="Context" data-testid="version-context" className={styles.unlabelled}>
                {version.context ? (
                  <details className={styles.disclosure}>
                    <summary>Read the context of v{version.version}</summary>
                    <p className={styles.contextText}>{version.context}</p>
                  </details>
                ) : (
                  <span className={styles.muted}>None</span>
                )}
              </td>
              <td data-label="Actions" className={styles.unlabelled}>
                <div className={styles.rowActions}>
                  <a href={viewerPath(slug, version.version)} target="_blank" rel="noopener">
                    Open v{version.version}
                  </a>
                  {deletable ? (
                    <ActionForm
                      action={deleteVersionAction}
                      label={`Delete version ${version.version}`}
                      submitLabel={`Yes, delete v${version.version}`}
                      tone="danger"
                      fold={{ summary: `Delete v${version.version}…`, className: styles.confirm }}
                    >
                      <input type="hidden" name="slug" value={slug} />
                      <input type="hidden" name="version" value={version.version} />
                      <p>Viewers pinned to v{version.version} will get “not found”. This cannot be undone.</p>
                    </ActionForm>
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {children}
    </section>
  );
}
