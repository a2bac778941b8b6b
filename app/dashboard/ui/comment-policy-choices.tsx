import type { CommentPolicy } from "@/lib/schemas/comments";
import styles from "../dashboard.module.css";

export const COMMENT_POLICY_CHOICES: { value: CommentPolicy; label: string }[] = [
  { value: "off", label: "Off: nobody can comment" },
  { value: "signed_in", label: "Signed-in accounts" },
  { value: "anyone", label: "Anyone, guests included (under a name they type)" },
];

/** The three comment settings as radio buttons named `comments`: a drop's, a new drop's, the account's default. */
export function CommentPolicyChoices({ legend, checked, describedBy }: { legend: string; checked: CommentPolicy; describedBy?: string }) {
  return (
    <fieldset className={styles.choices} aria-describedby={describedBy}>
      <legend>{legend}</legend>
      {COMMENT_POLICY_CHOICES.map((choice) => (
        <label key={choice.value} className={styles.choice}>
          <input type="radio" name="comments" value={choice.value} defaultChecked={choice.value === checked} required />
          <span>{choice.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
