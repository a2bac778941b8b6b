import { PageFrame } from "@/app/_components/page-frame";

/** A drop that is not there, or not for this reader: the same words either way. */
export function DropNotFound() {
  return (
    <PageFrame title="Drop not found">
      <p>There is no drop or version at this address. It may have been deleted; if someone shared the link with you, ask them for a fresh one.</p>
    </PageFrame>
  );
}
