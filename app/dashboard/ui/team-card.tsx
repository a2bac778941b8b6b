import type { TeamView } from "@/lib/dashboard/sharing";
import { teamMemberName } from "@/lib/dashboard/sharing-wording";
import { addTeamMemberAction, deleteTeamAction, removeTeamMemberAction } from "../sharing-actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { PostedInput } from "./posted-fields";

/** One team: its members; its maker adds and removes them or deletes it, a member may leave. */
export function TeamCard({ team }: { team: TeamView }) {
  const headingId = `team-${team.id}-heading`;
  return (
    <section className={styles.card} aria-labelledby={headingId} data-testid="team" data-team-id={team.id}>
      <h2 id={headingId}>{team.name}</h2>
      <p className={styles.muted}>{team.owned ? "You made this team: you manage its members." : "You are a member of this team."}</p>
      <ul className={styles.shareList} aria-label={`Members of ${team.name}`}>
        {team.members.map((member) => {
          const name = teamMemberName(member);
          const self = member.id === team.selfMemberId;
          return (
            <li key={member.id} className={styles.shareEntry} data-testid="team-member">
              <p className={styles.shareName}>
                <strong>{name}</strong>
                {self ? <span className={styles.muted}> (you)</span> : null}
                {member.pending ? (
                  <span className={styles.badge} title="Invited: a member once they sign in">
                    Pending
                  </span>
                ) : null}
              </p>
              {team.owned && !self ? (
                <ActionForm action={removeTeamMemberAction} label={`Remove ${name} from ${team.name}`} submitLabel="Remove" tone="secondary">
                  <input type="hidden" name="team_id" value={team.id} />
                  <input type="hidden" name="id" value={member.id} />
                </ActionForm>
              ) : null}
            </li>
          );
        })}
      </ul>
      {team.owned ? (
        <>
          <ActionForm action={addTeamMemberAction} label={`Add a member to ${team.name}`} submitLabel="Add member" statusId={`team-${team.id}-result`} resetOnSuccess>
            <input type="hidden" name="team_id" value={team.id} />
            <div className={styles.control}>
              <label htmlFor={`team-${team.id}-person`}>Login or email</label>
              <PostedInput id={`team-${team.id}-person`} name="person" required maxLength={254} autoComplete="off" spellCheck={false} aria-describedby={`team-${team.id}-result`} />
            </div>
          </ActionForm>
          <ActionForm action={deleteTeamAction} label={`Delete ${team.name}`} submitLabel={`Yes, delete ${team.name}`} tone="danger" fold={{ summary: "Delete this team…", className: styles.confirm }}>
            <input type="hidden" name="team_id" value={team.id} />
            <p>Drops shared with the team stop admitting its members through it. This cannot be undone.</p>
          </ActionForm>
        </>
      ) : team.selfMemberId ? (
        <ActionForm action={removeTeamMemberAction} label={`Leave ${team.name}`} submitLabel="Leave team" tone="secondary">
          <input type="hidden" name="team_id" value={team.id} />
          <input type="hidden" name="id" value={team.selfMemberId} />
          <input type="hidden" name="intent" value="leave" />
        </ActionForm>
      ) : null}
    </section>
  );
}
