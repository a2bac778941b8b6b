// Route handlers of /api/drops/{slug} that the front door (lib/serving/front-door.ts) also calls
// directly; app/api/drops/[slug]/route.ts exports the same functions to Next.
import { getDrop } from "@/lib/drops";
import { tokenRead } from "./with-token";

/** GET /api/drops/{slug}: `route` for Next, `call` for the front door, one check and one read. */
export const readDrop = tokenRead<{ slug: string }, Awaited<ReturnType<typeof getDrop>>>("getDrop", ({ caller, params }) => getDrop(caller.userId, params.slug));
export const getDropRoute = readDrop.route;
