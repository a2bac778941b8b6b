"use client";

import { useEffect, useRef, useState } from "react";
import { nextPollDelay } from "@/lib/drops/live-poll";
import { publicPath, viewerPath } from "@/lib/drops/public-urls";
import type { LiveVersionJson } from "@/lib/schemas/serving";
import styles from "./viewer.module.css";

/** The reader's choice to be shown each new version as it comes, kept by this browser for every drop. */
const FOLLOW_KEY = "htmldrop:follow-new-versions";
/**
 * The fragment of a page opened to show a new version. It is the pinned page (`?v=N`), because a shared
 * cache may still hold the latest page as it was; the page then puts the latest's URL back in the
 * address bar and goes on as the latest's reader.
 */
const LATEST_MARK = "#latest";

type Notice = { kind: "available"; version: number } | { kind: "shown"; version: number };

function readFollow(): boolean {
  try {
    return localStorage.getItem(FOLLOW_KEY) === "1";
  } catch {
    return false;
  }
}

function writeFollow(follow: boolean): void {
  try {
    if (follow) localStorage.setItem(FOLLOW_KEY, "1");
    else localStorage.removeItem(FOLLOW_KEY);
  } catch {
    // Storage refused (a private window's settings): the choice holds for this page only.
  }
}

/**
 * Tells the reader of a drop's latest version that a newer one was published, by polling the drop's
 * live document (lib/serving/live-version.ts), which a CDN answers for every reader: while the tab is
 * shown, every few seconds with jitter, backing off after failures, and never again once the drop is
 * gone or closed to this reader. A reader of a pinned version (`?v=N`) is never told or moved. The
 * notice floats over the bottom of the page, so nothing under the reader moves when it appears.
 */
export function LiveVersion({ slug, version }: { slug: string; version: number }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [follow, setFollow] = useState(false);
  const followRef = useRef(false);
  const dismissed = useRef(0);

  useEffect(() => {
    const arrived = location.hash === LATEST_MARK;
    if (new URLSearchParams(location.search).has("v") && !arrived) return;
    followRef.current = readFollow();
    setFollow(followRef.current);
    if (arrived) {
      history.replaceState(history.state, "", viewerPath(slug));
      // Said after the page is shown, so that the polite region announces it.
      setNotice({ kind: "shown", version });
    }

    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let failures = 0;
    let stopped = false;
    const schedule = () => {
      if (!stopped && timer === undefined && !inFlight && document.visibilityState === "visible") timer = setTimeout(poll, nextPollDelay(failures, Math.random()));
    };
    const poll = async () => {
      timer = undefined;
      if (document.visibilityState !== "visible") return;
      inFlight = true;
      try {
        // Revalidated by ETag with whichever cache answers: a 304 comes back here as the stored answer.
        const response = await fetch(publicPath(slug, "live"), { cache: "no-cache", headers: { accept: "application/json" } });
        if (response.status === 404) stopped = true;
        else if (!response.ok) failures++;
        else {
          failures = 0;
          const { latest_version: latest } = (await response.json()) as LiveVersionJson;
          // Only a newer version is news: a shared cache may still say an older one for a few seconds.
          if (Number.isInteger(latest) && latest > version) {
            if (followRef.current) {
              stopped = true;
              location.replace(`${viewerPath(slug, latest)}${LATEST_MARK}`);
            } else if (latest > dismissed.current) setNotice({ kind: "available", version: latest });
          }
        }
      } catch {
        failures++;
      } finally {
        inFlight = false;
      }
      schedule();
    };
    const onVisibility = () => {
      // Hidden: the pending poll is dropped. Shown again: ask at once, as the reader is back.
      if (document.visibilityState === "visible") {
        if (timer === undefined && !inFlight && !stopped) void poll();
      } else if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [slug, version]);

  const changeFollow = (next: boolean) => {
    followRef.current = next;
    setFollow(next);
    writeFollow(next);
  };
  const dismiss = () => {
    if (notice) dismissed.current = notice.version;
    setNotice(null);
  };

  const message = notice === null ? "" : notice.kind === "available" ? `Version ${notice.version} is available.` : `Now showing version ${notice.version}, the latest.`;
  return (
    <div className={styles.live} data-open={notice ? "" : undefined}>
      <p role="status" className={styles.liveMessage}>
        {message}
      </p>
      {notice ? (
        <div className={styles.liveActions}>
          {notice.kind === "available" ? (
            // A whole page load, not the router's: a client-side navigation is rendered per reader at the origin, the page itself comes from a cache.
            // eslint-disable-next-line @next/next/no-location-assign-relative-destination
            <button type="button" className={styles.liveShow} onClick={() => location.assign(`${viewerPath(slug, notice.version)}${LATEST_MARK}`)}>
              Show version {notice.version}
            </button>
          ) : null}
          <button type="button" onClick={dismiss}>
            Dismiss
          </button>
          <label className={styles.liveFollow}>
            <input type="checkbox" checked={follow} onChange={(event) => changeFollow(event.target.checked)} /> Show new versions automatically
          </label>
        </div>
      ) : null}
    </div>
  );
}
