/**
 * One header object from several, as the hot paths build them. On Node.js 20's V8 an object spread
 * followed by more properties (`{ ...SECURITY_HEADERS, etag }`) leaves the fast path: about a
 * microsecond for each property after it, 8 µs for a raw answer's headers, where Object.assign takes
 * a third of one.
 */
export function mergeHeaders(...parts: Record<string, string>[]): Record<string, string> {
  return Object.assign({}, ...parts);
}

export type HeaderSets = Map<string, Readonly<Record<string, string>>>;

/**
 * The header set `key` names, built on first use and then the same frozen object for every answer it
 * fits: built for each request, a raw answer's or a cached page's headers cost about as much as its
 * lookup (issue 35). At most `limit` sets are kept; the oldest goes first.
 */
export function keptHeaders(sets: HeaderSets, key: string, limit: number, build: () => Record<string, string>): Readonly<Record<string, string>> {
  let headers = sets.get(key);
  if (!headers) {
    headers = Object.freeze(build());
    if (sets.size >= limit) sets.delete(sets.keys().next().value!);
    sets.set(key, headers);
  }
  return headers;
}
