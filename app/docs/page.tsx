import type { Metadata } from "next";
import { SiteHeader } from "@/app/_components/site-header";
import { buildApiReference } from "@/lib/discovery/reference";
import { ReferencePage } from "./reference-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference" };

/** The API reference, drawn from the same document /openapi.json serves. */
export default function DocsPage() {
  return (
    <>
      <SiteHeader />
      <ReferencePage reference={buildApiReference()} />
    </>
  );
}
