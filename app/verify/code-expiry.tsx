"use client";

import { useEffect, useState } from "react";

type Props = { expiresAt: number; renderedAt: number };

function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

function remaining(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * When the code stops working: a static time from the server (all a browser without JavaScript sees),
 * then a countdown on the server's clock (the render's time plus the time since the page arrived).
 * Not a live region: a screen reader would hear it every second.
 */
export function CodeExpiry({ expiresAt, renderedAt }: Props) {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    const offset = renderedAt - Date.now();
    const tick = () => setLeft(expiresAt - (Date.now() + offset));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [expiresAt, renderedAt]);
  const at = <time dateTime={new Date(expiresAt).toISOString()}>{utcTime(expiresAt)}</time>;
  if (left === null) return <p data-testid="code-expiry">This code expires at {at}.</p>;
  if (left <= 0) return <p data-testid="code-expiry">This code has expired. Ask your agent to start a new sign-in.</p>;
  return (
    <p data-testid="code-expiry">
      This code expires in <strong data-testid="code-countdown">{remaining(left)}</strong> (at {at}).
    </p>
  );
}
