// Which events an endpoint wants: its event types, and optionally only some drops (by slug) or only
// drops carrying some metadata tags (every listed key with its value).
export type EndpointFilters = { events: string[]; drops: string[] | null; metadata: Record<string, string> | null };

export function parseEndpointFilters(row: { events: string; drops: string | null; metadata: string | null }): EndpointFilters {
  return {
    events: JSON.parse(row.events) as string[],
    drops: row.drops === null ? null : (JSON.parse(row.drops) as string[]),
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, string>),
  };
}

export function endpointWants(filters: EndpointFilters, type: string, drop: { slug: string; metadata: Record<string, string> }): boolean {
  if (!filters.events.includes(type)) return false;
  if (filters.drops !== null && !filters.drops.includes(drop.slug)) return false;
  return filters.metadata === null || Object.entries(filters.metadata).every(([key, value]) => drop.metadata[key] === value);
}
