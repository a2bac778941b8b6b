import type { Metadata } from "next";
import { DROP_FRAME_ID } from "@/lib/comments/frame-protocol";
import { CARD_HEIGHT, CARD_WIDTH } from "@/lib/previews/card";
import { DROP_SANDBOX } from "@/lib/serving/raw";
import { publicPath, viewerPath } from "@/lib/drops/public-urls";
import type { ViewerPage } from "@/lib/serving/viewer";
import { CommentsPanel, type CommentNotice } from "./comments-panel";
import { LiveVersion } from "./live-version";
import { ManageLink } from "./manage-link";
import styles from "./viewer.module.css";

type DropPage = Extract<ViewerPage, { kind: "drop" }>;

/** The metadata of a drop shown in the viewer. Search engines are told not to index it unless the owner opted in. */
export function dropMetadata(page: DropPage): Metadata {
  const description = page.description ?? undefined;
  const robots = page.indexable ? undefined : { index: false, follow: page.locked ? false : undefined };
  // Open Graph only for drops without a passcode: a locked drop's title never leaves the page.
  if (page.locked || page.imageUrl === null) return { title: page.title, description, robots };
  // Unfurls show a description under the title; a drop without one still says what it is.
  const cardDescription = page.description ?? `Version ${page.version} of a page published with htmldrop`;
  const image = { url: page.imageUrl, width: CARD_WIDTH, height: CARD_HEIGHT, alt: `${page.title}, version ${page.version}` };
  return {
    title: page.title,
    description,
    robots,
    openGraph: { title: page.title, description: cardDescription, url: page.url, type: "website", siteName: "htmldrop", images: [image] },
    twitter: { card: "summary_large_image", title: page.title, description: cardDescription, images: [image] },
  };
}

/** A drop in the viewer, as /p/<slug> and its shared cached form (./shared) render it. */
/**
 * The comments panel is rendered open; on a narrow screen this folds it under its summary, unless the
 * page is the answer to a comment just posted. Without JavaScript it simply stays open.
 */
const FOLD_COMMENTS_ON_PHONES =
  'if(matchMedia("(max-width: 959px)").matches&&!/[?&]comment(_error)?=/.test(location.search)){var c=document.getElementById("comments");if(c)c.open=false}';

/**
 * With JavaScript, choosing a version opens it at once and the "Show" button goes. Arrow keys on the
 * closed select change the value too: those changes bring the button back rather than navigating on
 * every key press. Without JavaScript the form submits as a plain GET.
 */
const SWITCH_VERSION_AT_ONCE =
  'var f=document.getElementById("version-picker"),s=f&&f.elements.namedItem("v"),b=f&&f.querySelector("button");if(s&&b){var k=false;b.hidden=true;s.addEventListener("keydown",function(e){k=/^(Arrow|Home|End|Page)/.test(e.key)&&!e.altKey});s.addEventListener("change",function(){if(k)b.hidden=false;else if(f.requestSubmit)f.requestSubmit();else f.submit();k=false})}';

/** The version before the shown one (or after it, when the shown one is the oldest), for "Compare". */
function compareHref(page: DropPage): string | null {
  const older = page.versions.find((version) => version.number < page.version);
  const newer = [...page.versions].reverse().find((version) => version.number > page.version);
  if (older) return publicPath(page.slug, "compare", { from: older.number, to: page.version });
  return newer ? publicPath(page.slug, "compare", { from: page.version, to: newer.number }) : null;
}

/** `notice` is what a plain form post came back with (?comment=…); the cached page has none. */
export function DropView({ page, notice = null }: { page: DropPage; notice?: CommentNotice | null }) {
  // The page is cached and served without rendering (lib/serving/cached-pages.ts, ./shared), so it
  // reports its own view once shown; a prefetched page is never shown and runs no script.
  const beacon = `navigator.sendBeacon(${JSON.stringify(publicPath(page.slug, "view", { v: page.version }))})`;
  const compare = compareHref(page);
  return (
    // Named, so that a drop's own main landmark, inside the frame, is not a second unnamed one.
    <main className={styles.viewer} aria-label="Viewer">
      <header className={styles.bar}>
        <div className={styles.heading}>
          <h1 className={styles.title} title={page.title}>
            {page.title}
          </h1>
          {page.description || page.context ? (
            // Folded behind one small button on a phone, so the bar stays one row; shown as is on wider screens.
            <details className={styles.about}>
              <summary className={styles.aboutSummary}>
                <span aria-hidden="true">i</span>
                <span className={styles.hidden}>About this drop</span>
              </summary>
              <div className={styles.aboutPanel}>
                {page.description ? <p className={styles.description}>{page.description}</p> : null}
                {page.context ? (
                  <details className={styles.context}>
                    <summary>Context for version {page.version}</summary>
                    <pre>{page.context}</pre>
                  </details>
                ) : null}
              </div>
            </details>
          ) : null}
        </div>
        <div className={styles.tools}>
          <form method="get" action={viewerPath(page.slug)} className={styles.versions} id="version-picker">
            <label>
              <span className={styles.label}>Version</span>{" "}
              <select name="v" defaultValue={String(page.version)} aria-label="Version">
                {page.versions.map((version) => (
                  <option key={version.number} value={version.number}>
                    {version.label}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit">Show</button>
          </form>
          <script dangerouslySetInnerHTML={{ __html: SWITCH_VERSION_AT_ONCE }} />
          {compare ? <a href={compare}>Compare</a> : null}
          <a href={page.fullPageHref} target="_blank" rel="noopener noreferrer">
            <span className={styles.wide}>Open </span>
            <span className={styles.capitalOnPhone}>full page</span>
          </a>
          <ManageLink slug={page.slug} href={page.manageHref} />
          {page.unlockedHere ? (
            <form method="post" action={publicPath(page.slug, "lock")}>
              <button type="submit">
                Lock<span className={styles.wide}> again</span>
              </button>
            </form>
          ) : null}
        </div>
        {page.version !== page.latestVersion ? (
          <p className={styles.olderVersion}>
            You are viewing version {page.version} of {page.latestVersion} — <a href={viewerPath(page.slug)}>see the latest</a>
          </p>
        ) : null}
      </header>
      <div className={styles.body}>
        <iframe id={DROP_FRAME_ID} className={styles.frame} src={page.frameSrc} sandbox={DROP_SANDBOX} title={page.title} referrerPolicy="no-referrer" />
        {page.comments ? (
          <>
            <CommentsPanel slug={page.slug} version={page.version} comments={page.comments} notice={notice} />
            <script dangerouslySetInnerHTML={{ __html: FOLD_COMMENTS_ON_PHONES }} />
          </>
        ) : null}
      </div>
      <LiveVersion slug={page.slug} version={page.version} />
      <script dangerouslySetInnerHTML={{ __html: beacon }} />
    </main>
  );
}
