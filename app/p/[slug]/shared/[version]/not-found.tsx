"use client";

import { useParams } from "next/navigation";
import { MissingVersion } from "../../missing-version";

/**
 * The shared page's own 404, without request headers (they would turn its cached page dynamic).
 * proxy.ts sends only an existing drop without a passcode here, so what is missing is the version.
 */
export default function SharedMissingVersion() {
  const { slug } = useParams<{ slug: string }>();
  return <MissingVersion slug={slug} />;
}
