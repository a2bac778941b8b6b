"use client";

import { startTransition, useActionState, useEffect, useRef, type ComponentProps, type FormEvent, type ReactNode } from "react";
import type { FormState } from "@/lib/dashboard/form-state";
import styles from "../dashboard.module.css";
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
};

/**
 * A form bound to a server action; its result is announced in a polite live region under the button.
 * Without JavaScript it posts as a plain form. With it, submission goes through onSubmit, because
 * React resets a form after its `action` runs and a refused edit must keep what the human typed.
 */
export function ActionForm({ action, children, submitLabel, tone = "primary", label, resetOnSuccess, className, statusId }: Props) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, { status: "idle", message: "" });
  const form = useRef<HTMLFormElement>(null);
  const shown = useShownUntilNextSubmit(state);
  useEffect(() => {
    if (resetOnSuccess && state.status === "ok") form.current?.reset();
  }, [state, resetOnSuccess]);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => formAction(data));
  }
  return (
    <form ref={form} action={formAction} onSubmit={submit} aria-label={label} className={className}>
      {children}
      <SubmitRow pending={pending} label={submitLabel} tone={tone} />
      <p id={statusId} role="status" aria-live="polite" className={state.status === "error" ? styles.formError : styles.formOk} data-state={state.status}>
        {shown ? state.message : ""}
      </p>
    </form>
  );
}
