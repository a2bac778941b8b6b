import type { Metadata } from "next";
import { unstable_cache } from "next/cache";
import { notFound } from "next/navigation";
import { dropPagesTag } from "@/lib/drops/changed";
import { getViewerPage, type ViewerPage } from "@/lib/serving/viewer";
import { DropView, dropMetadata } from "../../drop-view";

// The viewer page of a drop without a passcode as Next's own cached page, for deployments whose Next
// cache every instance shares (lib/serving/shared-pages.ts): proxy.ts rewrites /p/<slug>[?v=N] here.
// Rendered on the first request, then kept until a write to the drop expires its tag.
export const dynamicParams = true;

export function generateStaticParams(): { version: string }[] {
  return [];
}

type Props = { params: Promise<{ slug: string; version: string }> };

async function load({ params }: Props): Promise<ViewerPage> {
  const { slug, version } = await params;
  // No cookie: a drop locked since proxy.ts looked yields the gate, which is not served from here.
  const read = unstable_cache(() => getViewerPage(slug, version === "latest" ? undefined : version, null), ["shared-viewer", slug, version], { tags: [dropPagesTag(slug)] });
  return read();
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const page = await load(props);
  return page.kind === "drop" ? dropMetadata(page) : { title: "Not found" };
}

export default async function SharedViewerPage(props: Props) {
  const page = await load(props);
  if (page.kind !== "drop" || page.locked) notFound();
  return <DropView page={page} />;
}
