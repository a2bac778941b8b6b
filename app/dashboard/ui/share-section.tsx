import type { ShareCard } from "@/lib/dashboard/sharing";
import { describeAccess, memberName, ROLE_CHOICES } from "@/lib/dashboard/sharing-wording";
import type { DropMemberJson } from "@/lib/schemas/sharing";
import type { DropAccess, MemberRole } from "@/lib/sharing/levels";
import { addDropPersonAction, addDropTeamAction, removeMemberAction, setAccessAction, setMemberRoleAction } from "../sharing-actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { PostedInput, PostedSelect } from "./posted-fields";

type Props = { slug: string; access: DropAccess | undefined; card: ShareCard };

function RoleSelect({ id, role }: { id: string; role: MemberRole }) {
  return (
    <PostedSelect id={id} name="role" defaultValue={role}>
      {ROLE_CHOICES.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </PostedSelect>
  );
}

function Entry({ slug, member }: { slug: string; member: DropMemberJson }) {
  const name = memberName(member);
  const who = member.kind === "team" ? `team ${name}` : name;
  return (
    <li className={styles.shareEntry} data-testid="share-entry" data-member-id={member.id}>
      <p className={styles.shareName}>
        <strong>{name}</strong>
        {member.kind === "team" ? <span className={styles.badge}>Team</span> : null}
        {member.pending ? (
          <span className={styles.badge} title="Invited: admitted once they sign in">
            Pending
          </span>
        ) : null}
      </p>
      <div className={styles.shareActions}>
        <ActionForm action={setMemberRoleAction} label={`Role of ${who}`} submitLabel="Save role" tone="secondary" className={styles.inlineForm}>
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="id" value={member.id} />
          <div className={styles.control}>
            <label htmlFor={`role-${member.id}`}>Role</label>
            <RoleSelect id={`role-${member.id}`} role={member.role} />
          </div>
        </ActionForm>
        <ActionForm action={removeMemberAction} label={`Remove ${who}`} submitLabel="Remove" tone="secondary">
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="id" value={member.id} />
        </ActionForm>
      </div>
    </li>
  );
}

/** Who may open the drop: its access level, its list of people and teams, and forms to add to it. Its owner's only. */
export function ShareSection({ slug, access, card }: Props) {
  const current = access ?? "public";
  return (
    <section className={styles.card} aria-labelledby="share-heading">
      <h2 id="share-heading">Share</h2>
      <p data-testid="access-state">{describeAccess(current)}</p>
      <ActionForm action={setAccessAction} label="Who can open this drop" submitLabel="Save access">
        <input type="hidden" name="slug" value={slug} />
        <fieldset className={styles.choices}>
          <legend>Who can open this drop</legend>
          {card.choices.map((choice) => (
            <label key={choice.value} className={styles.choice}>
              <input type="radio" name="access" value={choice.value} defaultChecked={choice.value === current} required />
              <span>
                <strong>{choice.label}</strong>: {choice.explanation}
              </span>
            </label>
          ))}
        </fieldset>
      </ActionForm>

      <h3 className={styles.subheading}>People and teams</h3>
      {current !== "restricted" ? <p className={styles.muted}>While the drop is not restricted, the list only grants editing: its editors may publish versions and edit details.</p> : null}
      {card.members.length === 0 ? (
        <p className={styles.muted} data-testid="share-empty">
          Nobody yet. Only you can open a restricted drop until you add someone.
        </p>
      ) : (
        <ul className={styles.shareList} aria-label="People and teams on this drop">
          {card.members.map((member) => (
            <Entry key={member.id} slug={slug} member={member} />
          ))}
        </ul>
      )}

      <ActionForm action={addDropPersonAction} label="Add a person" submitLabel="Add person" statusId="share-person-result" resetOnSuccess>
        <input type="hidden" name="slug" value={slug} />
        <fieldset className={styles.fieldset}>
          <legend className={styles.subheading}>Add a person</legend>
          <div className={styles.control}>
            <label htmlFor="share-person">Login or email</label>
            <PostedInput id="share-person" name="person" required maxLength={254} autoComplete="off" spellCheck={false} aria-describedby="share-person-help share-person-result" />
            <small id="share-person-help" className={styles.muted}>
              Someone who has not signed in yet is invited, and admitted at their first sign-in with that login or email.
            </small>
          </div>
          <div className={styles.control}>
            <label htmlFor="share-person-role">Role</label>
            <RoleSelect id="share-person-role" role="viewer" />
          </div>
        </fieldset>
      </ActionForm>

      {card.teams.length > 0 ? (
        <ActionForm action={addDropTeamAction} label="Add a team" submitLabel="Add team" statusId="share-team-result">
          <input type="hidden" name="slug" value={slug} />
          <fieldset className={styles.fieldset}>
            <legend className={styles.subheading}>Add a team</legend>
            <div className={styles.control}>
              <label htmlFor="share-team">Team</label>
              <select id="share-team" name="team_id" required aria-describedby="share-team-result">
                {card.teams.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name}
                  </option>
                ))}
              </select>
            </div>
            <div className={styles.control}>
              <label htmlFor="share-team-role">Role</label>
              <RoleSelect id="share-team-role" role="viewer" />
            </div>
          </fieldset>
        </ActionForm>
      ) : (
        <p className={styles.muted}>
          To share with a group, <a href="/dashboard/teams">make a team</a>.
        </p>
      )}
    </section>
  );
}
