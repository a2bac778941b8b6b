import type { Metadata } from "next";
import { requireSessionUser } from "@/lib/auth/session";
import { dashboardNotice } from "@/lib/dashboard/messages";
import { loadTeams } from "@/lib/dashboard/sharing";
import { createTeamAction } from "../sharing-actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "../ui/action-form";
import { Notice } from "../ui/notice";
import { PostedInput } from "../ui/posted-fields";
import { TeamCard } from "../ui/team-card";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Teams" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function TeamsPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireSessionUser("/dashboard/teams");
  const teams = await loadTeams(user.userId);
  return (
    <main>
      <h1>Teams</h1>
      <p className={styles.muted}>Share a drop with a team to admit whoever is in it at the time: people you add later included, people you remove no more.</p>
      <Notice message={dashboardNotice((await searchParams).notice)} />
      <section className={styles.card} aria-labelledby="new-team-heading">
        <h2 id="new-team-heading">New team</h2>
        <ActionForm action={createTeamAction} label="New team" submitLabel="Make team" statusId="new-team-result" resetOnSuccess>
          <div className={styles.control}>
            <label htmlFor="team-name">Name</label>
            <PostedInput id="team-name" name="name" required maxLength={100} autoComplete="off" aria-describedby="new-team-result" />
          </div>
        </ActionForm>
      </section>
      {teams.length === 0 ? (
        <p className={styles.muted} data-testid="no-teams">
          You are in no team yet.
        </p>
      ) : (
        teams.map((team) => <TeamCard key={team.id} team={team} />)
      )}
    </main>
  );
}
