"use client";

import { useEffect, useState } from "react";
import { countdownStepMs, describeExpiry } from "@/lib/dashboard/expiry-wording";
import styles from "../dashboard.module.css";

type Props = { expiresAt: number; retentionDays: number; renderedAt: number };

/**
 * The expiry, counting down. It counts on the server's clock (the render's time plus the time since
 * the page arrived), so a device whose clock is off still shows when the link really stops; only the
 * page's load time is lost. Not a live region: a screen reader would hear it every second.
 */
export function ExpiryCountdown({ expiresAt, retentionDays, renderedAt }: Props) {
  const [at, setAt] = useState(renderedAt);
  useEffect(() => {
    const offset = renderedAt - Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const serverNow = Date.now() + offset;
      setAt(serverNow);
      timer = setTimeout(tick, countdownStepMs(expiresAt, serverNow));
    };
    tick();
    return () => clearTimeout(timer);
  }, [expiresAt, renderedAt]);
  const wording = describeExpiry(expiresAt, retentionDays, at);
  return (
    <div data-testid="expiry-state">
      <p>
        <strong>
          <time dateTime={new Date(expiresAt).toISOString()} title={wording.absolute} data-testid="expiry-countdown">
            {wording.relative}
          </time>
        </strong>{" "}
        <span className={styles.muted}>({wording.absolute})</span>
      </p>
      {wording.consequence ? <p data-testid="expiry-consequence">{wording.consequence}</p> : null}
    </div>
  );
}
