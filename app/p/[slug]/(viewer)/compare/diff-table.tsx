import type { DiffLine } from "@/lib/drops/diff-text";
import type { CompareHunk, CompareLine } from "@/lib/serving/compare";
import styles from "./compare.module.css";

const MARK: Record<DiffLine["kind"], { sign: string; words: string }> = {
  added: { sign: "+", words: "Added" },
  removed: { sign: "−", words: "Removed" },
  context: { sign: "", words: "Unchanged" },
};

/**
 * The line diff as one table: a row group per change with its line numbers, each line marked by a
 * sign and, for screen readers, in words, so colour is never the only cue.
 */
export function DiffTable({ hunks, from, to }: { hunks: CompareHunk[]; from: number; to: number }) {
  return (
    <table className={styles.diff}>
      <caption className={styles.visuallyHidden}>
        Source lines that changed from version {from} to version {to}, with a few unchanged lines around each change
      </caption>
      <thead>
        <tr>
          <th scope="col">v{from}</th>
          <th scope="col">v{to}</th>
          <th scope="col">
            <span className={styles.visuallyHidden}>Change</span>
          </th>
          <th scope="col">Line</th>
        </tr>
      </thead>
      {hunks.map((hunk) => (
        <tbody key={`${hunk.oldStart}-${hunk.newStart}`}>
          {hunk.lines.map((line, index) => (
            <tr key={index} className={styles[line.kind]}>
              <td className={styles.number}>{line.oldNumber ?? ""}</td>
              <td className={styles.number}>{line.newNumber ?? ""}</td>
              <td className={styles.sign}>
                <span aria-hidden="true">{MARK[line.kind].sign}</span>
                <span className={styles.visuallyHidden}>{MARK[line.kind].words}</span>
              </td>
              <td className={styles.code}>
                {line.hiddenBefore > 0 ? <span className={styles.cut}>{line.hiddenBefore.toLocaleString("en")} characters not shown … </span> : null}
                <LineText line={line} />
                {line.hiddenChars > 0 ? <span className={styles.cut}> … {line.hiddenChars.toLocaleString("en")} more characters not shown</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      ))}
    </table>
  );
}

/** A line paired with a changed one shows which of its words changed: removed ones in <del>, added ones in <ins>. */
function LineText({ line }: { line: CompareLine }) {
  if (line.words === null) return line.text;
  const Mark = line.kind === "removed" ? "del" : "ins";
  return line.words.map((word, index) => (word.changed ? <Mark key={index}>{word.text}</Mark> : word.text));
}
