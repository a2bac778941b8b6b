import type { ReactNode } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import { describeExpiryBriefly } from "@/lib/dashboard/expiry-wording";
import { dashboardDropPath, dashboardEditPath, type DropTab } from "@/lib/dashboard/paths";
import { accessBadge } from "@/lib/dashboard/sharing-wording";
import { publicPath } from "@/lib/drops/public-urls";
import type { DropJson } from "@/lib/schemas/drops";
import { DROP_SANDBOX } from "@/lib/serving/raw";
import styles from "../dashboard.module.css";
import { RelativeTime } from "./relative-time";

type Props = {
  drop: DropJson;
  /** The latest version's raw URL for this account (lib/serving/viewer.ts frameSrc), or null when it cannot be shown (expired). */
  previewSrc: string | null;
  latestPublishedAt: number | null;
  versionCount: number;
  recentViews: number;
  statsDays: number;
  renderedAt: number;
  /** Comments and who may open the drop are the owner's to change; an editor sees neither. */
  isOwner: boolean;
};

/** One fact of the drop, with the link to the tab where it changes beside its name (so the value keeps one line). */
function Fact({ term, children, slug, tab, change, testId }: { term: string; children: ReactNode; slug: string; tab: DropTab; change: string; testId: string }) {
  return (
    <div className={styles.fact}>
      <dt>
        {term}{" "}
        <a href={dashboardDropPath(slug, tab)} className={styles.factLink}>
          {change}
        </a>
      </dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/**
 * The first screen of a drop's page: what it looks like now, its link, and what an owner checks and
 * does most (open, edit, compare; who can open it, until when, whether it takes comments).
 */
export function DropOverview({ drop, previewSrc, latestPublishedAt, versionCount, recentViews, statsDays, renderedAt, isOwner }: Props) {
  const slug = drop.slug;
  const latest = drop.latest_version;
  return (
    <section className={styles.overview} aria-label="Overview">
      <div className={styles.preview}>
        {previewSrc ? (
          <iframe src={previewSrc} sandbox={DROP_SANDBOX} title={`Preview of v${latest}`} referrerPolicy="no-referrer" tabIndex={-1} className={styles.previewFrame} />
        ) : (
          <p className={styles.previewGone}>Expired: nothing is shown until you extend it.</p>
        )}
      </div>
      <div className={styles.overviewSide}>
        {[
          { id: "viewer-link", label: "Viewer link", value: drop.url },
          { id: "raw-link", label: "Raw link", value: drop.raw_url },
        ].map((link) => (
          <div key={link.id} className={styles.linkRow}>
            <label htmlFor={link.id}>{link.label}</label>
            <div className={styles.field}>
              <input id={link.id} readOnly value={link.value} className={styles.mono} />
              <CopyButton value={link.value} label={link.label.toLowerCase()} className={styles.secondary} />
            </div>
          </div>
        ))}
        <div className={styles.actions}>
          <a href={drop.url} target="_blank" rel="noopener" className={styles.primary}>
            Open
          </a>
          <a href={dashboardEditPath(slug)} className={styles.linkButton}>
            Edit HTML
          </a>
          {versionCount > 1 ? (
            <a href={publicPath(slug, "compare", { from: latest - 1, to: latest })} className={styles.linkButton} data-testid="compare-link">
              Compare with v{latest - 1}
            </a>
          ) : null}
          <a href={`${dashboardDropPath(slug)}#version-upload`} className={styles.linkButton}>
            Upload a version
          </a>
        </div>
        <dl className={styles.factList}>
          <Fact term="Version" slug={slug} tab="versions" change="All versions" testId="fact-version">
            v{latest}
            {latestPublishedAt !== null ? (
              <>
                , <RelativeTime at={latestPublishedAt} now={renderedAt} />
              </>
            ) : null}{" "}
            · {versionCount} in all
          </Fact>
          <Fact term="Views" slug={slug} tab="views" change="Details" testId="fact-views">
            {drop.view_count} in all · {recentViews} in {statsDays} days
          </Fact>
          <Fact term="Passcode" slug={slug} tab="share" change={drop.locked ? "Change" : "Set"} testId="fact-passcode">
            {drop.locked ? "Locked: visitors must enter it" : "None"}
          </Fact>
          <Fact term="Expiry" slug={slug} tab="share" change={drop.expires_at === undefined ? "Set" : "Change"} testId="fact-expiry">
            {drop.expires_at === undefined ? "Never" : drop.expired ? "Expired: the links answer “410 Gone”." : describeExpiryBriefly(drop.expires_at, renderedAt)}
          </Fact>
          {isOwner ? (
            <>
              <Fact term="Who can open it" slug={slug} tab="share" change="Share" testId="fact-access">
                {accessBadge(drop.access) ?? "Anyone with the link"}
              </Fact>
              <Fact term="Comments" slug={slug} tab="comments" change={drop.comments ? "Change" : "Turn on"} testId="fact-comments">
                {drop.comments ? "On" : "Off"}
              </Fact>
            </>
          ) : null}
        </dl>
      </div>
    </section>
  );
}

/** The drop page's groups as links: each loads the page with that group, so they work without JavaScript. */
export function DropTabs({ slug, current, tabs }: { slug: string; current: DropTab; tabs: readonly { id: DropTab; label: string }[] }) {
  return (
    <nav aria-label="Drop sections" className={styles.tabs}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.id}>
            <a href={dashboardDropPath(slug, tab.id)} aria-current={tab.id === current ? "page" : undefined}>
              {tab.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
