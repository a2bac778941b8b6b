import type { PatternSummary } from "@/lib/schemas/patterns";
import { deletePatternAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { RelativeTime } from "./relative-time";

export type PatternRow = PatternSummary & {
  /** One of the account's own that takes the place of a built-in one of the same name. */
  replacesBuiltin: boolean;
  /** The built-in one's public Markdown, when this row replaces it. */
  builtinUrl: string | null;
};

/** A link whose text the row explains; its accessible name says which pattern it is about. */
function RowLink({ href, text, name }: { href: string; text: string; name: string }) {
  return (
    <a href={href} aria-label={`${text}: ${name}`} className={styles.nowrap}>
      {text}
    </a>
  );
}

/** Where the pattern comes from, as one element: on a phone the cell is a grid of its label and its content. */
function Source({ pattern, now }: { pattern: PatternRow; now: number }) {
  if (pattern.source === "builtin") {
    return (
      <div>
        Built-in · <RowLink href={pattern.url!} text="Markdown" name={pattern.name} />
      </div>
    );
  }
  return (
    <div>
      Yours{pattern.replacesBuiltin ? ", in place of the built-in one" : ""}
      <div className={styles.muted}>
        Saved <RelativeTime at={pattern.updated_at} now={now} />
      </div>
      {pattern.builtinUrl ? (
        <div>
          <RowLink href={pattern.builtinUrl} text="The built-in one" name={pattern.name} />
        </div>
      ) : null}
    </div>
  );
}

function Template({ pattern }: { pattern: PatternRow }) {
  if (!pattern.has_template) return <span className={styles.muted}>None</span>;
  if (!pattern.template_url) return <>Yes</>;
  return <RowLink href={pattern.template_url} text="Template" name={pattern.name} />;
}

function Actions({ pattern }: { pattern: PatternRow }) {
  const query = encodeURIComponent(pattern.name);
  if (pattern.source === "builtin") {
    return <RowLink href={`/dashboard/patterns?from=${query}#pattern-form-heading`} text="Start from this" name={pattern.name} />;
  }
  return (
    <div className={styles.rowActions}>
      <RowLink href={`/dashboard/patterns?edit=${query}#pattern-form-heading`} text="Edit" name={pattern.name} />
      <ActionForm
        action={deletePatternAction}
        label={`Delete pattern ${pattern.name}`}
        submitLabel={`Yes, delete ${pattern.name}`}
        tone="danger"
        fold={{
          summary: (
            <>
              Delete…<span className={styles.visuallyHidden}> {pattern.name}</span>
            </>
          ),
          className: styles.confirm,
        }}
      >
        <input type="hidden" name="name" value={pattern.name} />
        <p>
          Your agents will no longer see it{pattern.replacesBuiltin ? "; they get the built-in pattern of the same name again" : ""}. This cannot be undone.
        </p>
      </ActionForm>
    </div>
  );
}

/** The account's patterns as its agents see them: its own, and the built-in ones it has not replaced. */
export function PatternTable({ patterns, now }: { patterns: PatternRow[]; now: number }) {
  if (patterns.length === 0) return <p className={styles.card}>No patterns yet. Add one below.</p>;
  return (
    <table className={styles.table} data-testid="pattern-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">What it makes</th>
          <th scope="col">Triggers</th>
          <th scope="col">Source</th>
          <th scope="col">Template</th>
          <th scope="col">
            <span className={styles.visuallyHidden}>Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {patterns.map((pattern) => (
          <tr key={pattern.name} data-pattern={pattern.name} data-source={pattern.source}>
            <th scope="row" data-label="Name" className={`${styles.mono} ${styles.patternName}`}>
              {pattern.name}
            </th>
            <td data-label="What it makes" className={styles.patternDescription}>
              {pattern.description}
            </td>
            <td data-label="Triggers" className={styles.patternTriggers}>
              <ul className={styles.tags}>
                {pattern.triggers.map((trigger, index) => (
                  <li key={index} className={styles.tag}>
                    {trigger}
                  </li>
                ))}
              </ul>
            </td>
            <td data-label="Source" data-testid="pattern-source">
              <Source pattern={pattern} now={now} />
            </td>
            <td data-label="Template">
              <Template pattern={pattern} />
            </td>
            <td data-label="Actions">
              <Actions pattern={pattern} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
