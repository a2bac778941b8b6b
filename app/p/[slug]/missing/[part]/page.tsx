import type { Metadata } from "next";
import { DropNotFound } from "../../drop-not-found";
import { MissingVersion } from "../../missing-version";

type Props = { params: Promise<{ slug: string; part: string }> };

export const metadata: Metadata = { title: "Not found", robots: { index: false, follow: false } };

/**
 * A drop page that is not there, as proxy.ts answers it (404): the drop, or only the version asked for
 * (then the way to the latest). Proxy has decided; nothing here reads the request, so the page is the
 * same for everyone it is shown to.
 */
export default async function MissingPage({ params }: Props) {
  const { slug, part } = await params;
  return part === "version" ? <MissingVersion slug={slug} /> : <DropNotFound />;
}
