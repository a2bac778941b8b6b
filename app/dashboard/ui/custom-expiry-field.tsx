"use client";

import { useEffect, useRef, useState } from "react";
import styles from "../dashboard.module.css";

type Props = {
  /** The radio group this field belongs to, and the value that means "this date and time". */
  choiceName: string;
  choiceValue: string;
  /** Ids of the form's other descriptions (its result), read after the field's own help. */
  describedBy: string;
};

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "your device's time zone";
}

/**
 * A custom expiry. The value of a datetime-local input names no time zone; the browser reads it in
 * its own (`new Date` takes an offset-less date-time as local time) and posts the instant as
 * `custom_ms`. Until this script runs the help text says UTC, which is how the server reads the value
 * when `custom_ms` is missing (lib/dashboard/expiry-form.ts).
 */
export function CustomExpiryField({ choiceName, choiceValue, describedBy }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [instant, setInstant] = useState("");
  const [zone, setZone] = useState<string | null>(null);
  function convert(value: string): string {
    const ms = new Date(value).getTime();
    return value && Number.isFinite(ms) ? String(ms) : "";
  }
  // After hydration, when the browser's zone is known; a value typed before then is converted too.
  useEffect(() => {
    setZone(browserZone());
    setInstant(convert(input.current?.value ?? ""));
  }, []);
  function change(value: string) {
    setInstant(convert(value));
    const choices = input.current?.form?.elements.namedItem(choiceName);
    if (choices instanceof RadioNodeList) choices.value = choiceValue;
  }
  return (
    <div className={`${styles.control} ${styles.nested}`}>
      <label htmlFor="expiry-custom">Date and time</label>
      <input
        ref={input}
        id="expiry-custom"
        name="custom_local"
        type="datetime-local"
        step={1}
        onChange={(event) => change(event.currentTarget.value)}
        aria-describedby={`expiry-custom-help ${describedBy}`}
      />
      <input type="hidden" name="custom_ms" value={instant} />
      <small id="expiry-custom-help" className={styles.muted}>
        {zone ? `In your time zone (${zone}).` : "Read as UTC."}
      </small>
    </div>
  );
}
