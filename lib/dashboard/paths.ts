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

/** A drop's page in the dashboard. */
export function dashboardDropPath(slug: string): string {
  return `/dashboard/drops/${encodeURIComponent(slug)}`;
}

/** The editor of a drop's latest HTML, on the dashboard. */
export function dashboardEditPath(slug: string): string {
  return `${dashboardDropPath(slug)}/edit`;
}
