"use client";

import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from "react";

/** Opens the fold with this id, if there is one: for links to it, also when the address already names it. */
export function reveal(id: string) {
  const element = document.getElementById(id);
  if (element instanceof HTMLDetailsElement) element.open = true;
}

type Props = Omit<ComponentProps<"details">, "ref" | "open" | "onToggle"> & { summary: ReactNode };

/**
 * A <details> whose content is rendered once it is opened: folded, it costs the page only its data, not
 * its markup as well. It opens when the address points at it.
 */
export function Fold({ id, summary, children, ...attributes }: Props) {
  const [open, setOpen] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const element = details.current!;
    // Opened before hydration, when the toggle event went unseen.
    setOpen(element.open);
    const revealNamed = () => {
      if (id && decodeURIComponent(location.hash.slice(1)) === id) element.open = true;
    };
    revealNamed();
    addEventListener("hashchange", revealNamed);
    return () => removeEventListener("hashchange", revealNamed);
  }, [id]);
  return (
    <details {...attributes} id={id} ref={details} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && children}
    </details>
  );
}
