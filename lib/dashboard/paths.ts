type SearchParams = Record<string, string | string[] | undefined>;

/** The page's own address with its query, so sign-in returns exactly where the visitor was going. */
export function pathWithQuery(path: string, params: SearchParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, one);
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The groups of a drop's page, each a tab of its own (`?tab=`); the first is shown without one. */
export const DROP_TABS = [
  { id: "versions", label: "Versions" },
  { id: "share", label: "Share" },
  { id: "comments", label: "Comments" },
  { id: "views", label: "Views" },
  { id: "settings", label: "Settings" },
] as const;
export type DropTab = (typeof DROP_TABS)[number]["id"];

/** `?tab=`: anything that is not a tab's name shows the first. */
export function dropTabFrom(value: unknown): DropTab {
  return DROP_TABS.find((tab) => tab.id === value)?.id ?? "versions";
}

/** A drop's page in the dashboard, on one of its tabs. */
export function dashboardDropPath(slug: string, tab: DropTab = "versions"): string {
  return `/dashboard/drops/${encodeURIComponent(slug)}${tab === "versions" ? "" : `?tab=${tab}`}`;
}

/** The editor of a drop's latest HTML, on the dashboard. */
export function dashboardEditPath(slug: string): string {
  return `${dashboardDropPath(slug)}/edit`;
}

/**
 * Whether this browser's session may manage the drop, as JSON `{"href": <its page> | null}`: asked by the
 * drop's public page, whose shared bytes cannot say (app/p/[slug]/manage-link.tsx).
 */
export function dashboardManageLinkPath(slug: string): string {
  return `${dashboardDropPath(slug)}/manage.json`;
}
