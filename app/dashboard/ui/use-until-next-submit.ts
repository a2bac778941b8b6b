"use client";

import { useEffect, useState } from "react";

/**
 * False once any form on the page is submitted after `result` arrived, so a form's result or a page's
 * notice does not linger next to the outcome of the next action. A new result shows again.
 */
export function useShownUntilNextSubmit(result: unknown): boolean {
  const [hiddenFor, setHiddenFor] = useState<unknown>(undefined);
  useEffect(() => {
    const hide = () => setHiddenFor(result);
    // Capture: a form whose own handler stops the event still counts as the next action.
    document.addEventListener("submit", hide, true);
    return () => document.removeEventListener("submit", hide, true);
  }, [result]);
  return hiddenFor !== result;
}
