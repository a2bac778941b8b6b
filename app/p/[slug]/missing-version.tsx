import { PageFrame } from "@/app/_components/page-frame";
import { viewerPath } from "@/lib/drops/public-urls";

/**
 * A 404 for a version (or a comparison) of a drop the reader may see: the way to the latest. Never the
 * title. Without a slug (the shared page's 404, which has no request to read it from) the link is the
 * same path without its query, which is the drop's latest version.
 */
export function MissingVersion({ slug }: { slug: string | null }) {
  return (
    <PageFrame title="This version does not exist">
      <p>It may have been deleted, or the link may have a typing mistake in it.</p>
      <p>
        <a href={slug === null ? "?" : viewerPath(slug)}>See the latest version</a>
      </p>
    </PageFrame>
  );
}
