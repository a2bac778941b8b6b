import { headers } from "next/headers";
import { slugInDropUrl } from "@/lib/drops/public-urls";
import { DROP_PAGE_URL_HEADER } from "@/lib/serving/shared-pages";
import { isDropVisible } from "@/lib/serving/viewer";
import { MissingVersion } from "../missing-version";

/**
 * A missing drop, or a missing version of a drop this browser may see (then linked to its latest). In
 * the (viewer) group so it wraps only the per-request pages: Next renders a segment's not-found with
 * every page below it, and request headers would make the shared cached page (../shared) fail.
 */
export default async function DropNotFound() {
  const requestHeaders = await headers();
  const slug = slugInDropUrl(requestHeaders.get(DROP_PAGE_URL_HEADER));
  if (slug !== null && (await isDropVisible(slug, requestHeaders.get("cookie")))) return <MissingVersion slug={slug} />;
  return (
    <main>
      <h1>Drop not found</h1>
      <p>There is no drop or version at this address. It may have been deleted; if someone shared the link with you, ask them for a fresh one.</p>
    </main>
  );
}
