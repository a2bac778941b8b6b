import { headers } from "next/headers";
import { slugInDropUrl } from "@/lib/drops/public-urls";
import { DROP_PAGE_URL_HEADER } from "@/lib/serving/shared-pages";
import { isDropVisible } from "@/lib/serving/viewer";
import { DropNotFound } from "../drop-not-found";
import { MissingVersion } from "../missing-version";

/**
 * The 404 of a page that calls notFound() (the compare page's versions, or a drop gone between
 * proxy.ts's decision and the page's): Next sends it in its client payload only. Everything proxy.ts
 * can decide is its missing page instead, drawn on the server. In the (viewer) group so it wraps only
 * the per-request pages: request headers would make the shared cached page (../shared) fail.
 */
export default async function ViewerNotFound() {
  const requestHeaders = await headers();
  const slug = slugInDropUrl(requestHeaders.get(DROP_PAGE_URL_HEADER));
  if (slug !== null && (await isDropVisible(slug, requestHeaders.get("cookie")))) return <MissingVersion slug={slug} />;
  return <DropNotFound />;
}
