import type { ComponentProps, ReactNode } from "react";
import type { FormState } from "@/lib/dashboard/form-state";

type Props = Omit<ComponentProps<"details">, "open"> & {
  /** The folded form's state: the fold is open while it has a result. */
  state: FormState;
  summary: ReactNode;
  summaryClassName?: string;
  /** Keeps the fold open for a reason of its own as well (a file being dragged onto the page). */
  held?: boolean;
};

/**
 * A form folded under a disclosure, open while it has a result: a form posted without JavaScript comes
 * back as a new page, where a closed fold would hide the result, a refusal and why.
 */
export function ResultFold({ state, summary, summaryClassName, held = false, children, ...details }: Props) {
  return (
    <details {...details} open={held || state.status !== "idle" || undefined}>
      <summary className={summaryClassName}>{summary}</summary>
      {children}
    </details>
  );
}
