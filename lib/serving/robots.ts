// Drops stay out of search engines unless their owner opts in (the drop's `indexable` field; whether a
// page may be indexed is decided in lib/drops/access-decision.ts). The viewer, raw HTML and preview
// image say so in a header, which crawlers read on every kind of response; robots.txt never blocks /p/,
// or a crawler could not fetch a page to see it.

export const ROBOTS_HEADER = "x-robots-tag";
export const NOINDEX = "noindex";

/** The header that keeps a response out of search engines, or none when the drop may be indexed. */
export function robotsHeaders(indexable: boolean): Record<string, string> {
  return indexable ? {} : { [ROBOTS_HEADER]: NOINDEX };
}
