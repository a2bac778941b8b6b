// Route handlers of /api/drops/{slug} that the front door (lib/serving/front-door.ts) also calls
// directly; app/api/drops/[slug]/route.ts exports the same functions to Next.
import { getDrop } from "@/lib/drops";
import { jsonResponse } from "./responses";
import { withToken } from "./with-token";

export const getDropRoute = withToken<{ slug: string }>("getDrop", async ({ caller, params }) => jsonResponse(await getDrop(caller.userId, params.slug)));
