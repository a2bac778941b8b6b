// Route handlers of the drop reads that the front door (lib/serving/front-door.ts) also calls directly;
// app/api/drops/route.ts and app/api/drops/[slug]/route.ts export the same functions to Next.
import { getDrop, listDrops } from "@/lib/drops";
import { dropRowRead } from "@/lib/drops/access";
import type { StoredDropRow } from "@/lib/drops/drop-rows";
import { listDropsQuerySchema, listQueryInput } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";
import { tokenRead } from "./with-token";

/** GET /api/drops/{slug}: `route` for Next, `call` for the front door; the token and the drop in one read. */
export const readDrop = tokenRead<{ slug: string }, Awaited<ReturnType<typeof getDrop>>, StoredDropRow>(
  "getDrop",
  ({ caller, params, row }) => getDrop(caller.userId, params.slug, row),
  ({ slug }) => dropRowRead(slug),
);
export const getDropRoute = readDrop.route;

/** GET /api/drops: `search` is the request's query string, filters and page as the spec words them. */
export const readDropList = tokenRead<{ search: string }, Awaited<ReturnType<typeof listDrops>>>("listDrops", ({ caller, params }) => {
  const query = parseInput(listDropsQuerySchema, listQueryInput(new URLSearchParams(params.search)));
  return listDrops(caller.userId, { ...query, onlySlugs: caller.drops });
});

export function listDropsRoute(request: Request): Promise<Response> {
  return readDropList.route(request, { params: Promise.resolve({ search: new URL(request.url).search }) });
}
