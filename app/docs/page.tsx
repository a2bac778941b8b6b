import type { Metadata } from "next";
import { buildApiReference } from "@/lib/discovery/reference";
import { ReferencePage } from "./reference-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference" };

/** The API reference, drawn from the same document /openapi.json serves. */
export default function DocsPage() {
  return <ReferencePage reference={buildApiReference()} />;
}
