"use client";

import { startTransition, useActionState, useEffect, useRef, type ComponentProps, type FormEvent, type ReactNode } from "react";
import type { FormState } from "@/lib/dashboard/form-state";
import styles from "../dashboard.module.css";
import { PostedFields } from "./posted-fields";
import { ResultFold } from "./result-fold";
import { SubmitRow } from "./submit-row";
import { useShownUntilNextSubmit } from "./use-until-next-submit";

type Props = {
  action: (previous: FormState, form: FormData) => Promise<FormState>;
  /** Hidden fields, inputs and fieldsets of the form. */
  children?: ReactNode;
  submitLabel: string;
  tone?: ComponentProps<typeof SubmitRow>["tone"];
  /** The form's accessible name. */
  label: string;
  /** Clear the fields after a success (a passcode should not linger in the page). */
  resetOnSuccess?: boolean;
  className?: string;
  /** Id of the result's live region, for fields that point at it with aria-describedby. */
  statusId?: string;
  /** Folds the form under a disclosure (a confirmation, a reply): a ResultFold. */
  fold?: { summary: ReactNode; className?: string };
};

const IDLE: FormState = { status: "idle", message: "" };

/**
 * A form bound to a server action, for forms whose result draws more than a message (a secret shown
 * once). Without JavaScript it posts as a plain form. With it, submission goes through onSubmit,
 * because React resets a form after its `action` runs and a refused edit must keep what the human typed.
 */
export function useActionForm<S extends FormState>(action: (previous: Awaited<S>, form: FormData) => Promise<S>, resetOnSuccess = false) {
  const [state, formAction, pending] = useActionState<S, FormData>(action, IDLE as Awaited<S>);
  const form = useRef<HTMLFormElement>(null);
  const shown = useShownUntilNextSubmit(state);
  useEffect(() => {
    if (resetOnSuccess && state.status === "ok") form.current?.reset();
  }, [state, resetOnSuccess]);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => formAction(data));
  }
  return { state, pending, shown, formProps: { ref: form, action: formAction, onSubmit } };
}

/** A form's result, announced in a polite live region under its button. */
export function FormStatus({ state, shown, id }: { state: FormState; shown: boolean; id?: string }) {
  return (
    <p id={id} role="status" aria-live="polite" className={state.status === "error" ? styles.formError : styles.formOk} data-state={state.status}>
      {shown ? state.message : ""}
    </p>
  );
}

/** A form bound to a server action whose result is a message (useActionForm). */
export function ActionForm({ action, children, submitLabel, tone = "primary", label, resetOnSuccess, className, statusId, fold }: Props) {
  const { state, pending, shown, formProps } = useActionForm(action, resetOnSuccess);
  const form = (
    <form {...formProps} aria-label={label} className={className}>
      <PostedFields.Provider value={state.status === "error" ? state.posted : undefined}>{children}</PostedFields.Provider>
      <SubmitRow pending={pending} label={submitLabel} tone={tone} />
      <FormStatus state={state} shown={shown} id={statusId} />
    </form>
  );
  if (!fold) return form;
  return (
    <ResultFold state={state} summary={fold.summary} className={fold.className}>
      {form}
    </ResultFold>
  );
}
