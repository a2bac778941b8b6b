import { PageFrame } from "@/app/_components/page-frame";
import { publicPath } from "@/lib/drops/public-urls";
import { GATE_MESSAGES } from "@/lib/serving/viewer";
import styles from "./viewer.module.css";

type Props = {
  slug: string;
  version: string | null;
  error: keyof typeof GATE_MESSAGES | null;
  /** Shown on the compare page: the versions it compares, to return to them once unlocked. */
  compare?: { from: string | undefined; to: string | undefined };
};

/** The passcode form a locked drop's pages show instead of anything of the drop. */
export function Gate({ slug, version, error, compare }: Props) {
  return (
    <PageFrame title="This drop is locked">
      <p>Enter the passcode that came with the link.</p>
      {error ? (
        <p role="alert" className={styles.error}>
          {GATE_MESSAGES[error]}
        </p>
      ) : null}
      <form method="post" action={publicPath(slug, "unlock")} className={styles.gateForm}>
        {version ? <input type="hidden" name="v" value={version} /> : null}
        {compare ? <input type="hidden" name="page" value="compare" /> : null}
        {compare?.from ? <input type="hidden" name="from" value={compare.from} /> : null}
        {compare?.to ? <input type="hidden" name="to" value={compare.to} /> : null}
        <label>
          Passcode
          <input type="password" name="passcode" required autoComplete="off" autoFocus />
        </label>
        <button type="submit">Unlock</button>
      </form>
    </PageFrame>
  );
}
