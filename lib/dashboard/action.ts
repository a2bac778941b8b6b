// The skeleton every dashboard server action shares, so each action says only what is its own: how it
// reads its form, which lib service it calls, and what it shows after.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/session";
import { toFormState, type FormState } from "./form-state";
import { DASHBOARD_MESSAGES } from "./messages";

/** Where a finished action leaves the owner: the form's next state, or another page; and which pages now show stale data. */
export type ActionOutcome<S extends FormState> = ({ state: S } | { redirectTo: string }) & { revalidate?: readonly string[] };

/**
 * An action for `work`: the session's account and a real form first (an action is a public endpoint, so a
 * hand-made request can pass anything where the page passes its form), then `work`; whatever it throws
 * becomes the form's state through `onError`. Pages are revalidated and the redirect thrown outside the
 * catch, since Next's redirect is itself a throw.
 */
export function dashboardAction<S extends FormState = FormState>(
  work: (owner: string, form: FormData) => Promise<ActionOutcome<S>>,
  onError: (error: unknown, form: FormData) => S = (error) => toFormState(error) as S,
): (previous: S, form: FormData) => Promise<S> {
  return async (_previous, form) => {
    const user = await getSessionUser();
    // Every state type is FormState with optional fields of its own, so a refusal is one of each.
    if (!user) return { status: "error", message: DASHBOARD_MESSAGES.signedOut } as S;
    if (!(form instanceof FormData)) return { status: "error", message: DASHBOARD_MESSAGES.notAForm } as S;
    let outcome: ActionOutcome<S>;
    try {
      outcome = await work(user.userId, form);
    } catch (error) {
      return onError(error, form);
    }
    for (const path of outcome.revalidate ?? []) revalidatePath(path);
    if ("redirectTo" in outcome) redirect(outcome.redirectTo);
    return outcome.state;
  };
}

/** A refusal an action answers before calling its service. */
export function refused(message: string): { state: FormState } {
  return { state: { status: "error", message } };
}
