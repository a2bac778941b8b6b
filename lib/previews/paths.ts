// The address of a drop version's preview image (Open Graph), and how a request names one.
import { SLUG_PATTERN } from "@/lib/schemas/common";

const PREVIEW_PATH = /^\/p\/([^/?#]*)\/og\.png$/;
const VERSION_PARAM = /^[1-9][0-9]{0,8}$/;

/** Always pinned to a version: an unfurl keeps showing the version that was shared. */
export function previewImagePath(slug: string, version: number): string {
  return `/p/${slug}/og.png?v=${version}`;
}

export type PreviewTarget = { slug: string; version: number | null };

/** The drop and version a request asks for (null version: the latest), or null when it names none. */
export function parsePreviewTarget(url: URL): PreviewTarget | null {
  const segment = PREVIEW_PATH.exec(url.pathname)?.[1];
  if (segment === undefined) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(segment);
  } catch {
    return null;
  }
  if (!SLUG_PATTERN.test(slug)) return null;
  const versions = url.searchParams.getAll("v");
  if (versions.length === 0) return { slug, version: null };
  return versions.length === 1 && VERSION_PARAM.test(versions[0]!) ? { slug, version: Number(versions[0]) } : null;
}
