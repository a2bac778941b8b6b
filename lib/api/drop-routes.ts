// Route handlers of the drop reads that the front door (lib/serving/front-door.ts) also calls directly;
// app/api/drops/route.ts and app/api/drops/[slug]/route.ts export the same functions to Next.
import { CALLER_ACCOUNT } from "@/lib/accounts/tokens";
import { getDrop, listDrops } from "@/lib/drops";
import { dropRowRead } from "@/lib/drops/access";
import type { StoredDropRow } from "@/lib/drops/drop-rows";
import { dropListPage, type DropListPage, type ListedDropRow } from "@/lib/drops/list-drops";
import { listDropsQuerySchema, listQueryInput, type ListDropsQuery } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";
import { tokenRead } from "./with-token";

/** GET /api/drops/{slug}: `route` for Next, `call` for the front door; the token and the drop in one read. */
export const readDrop = tokenRead<{ slug: string }, Awaited<ReturnType<typeof getDrop>>, StoredDropRow>(
  "getDrop",
  ({ caller, params, along }) => getDrop(caller.userId, params.slug, along),
  ({ slug }) => dropRowRead(slug),
);
export const getDropRoute = readDrop.route;

type ListAlong = DropListPage & { query: ListDropsQuery };

/** Query strings kept with their parse, up to 256 KB of them; past this many, the memo starts over. */
const PARSED_LIST_QUERIES = 256;
const PARSED_LIST_QUERY_MAX_CHARS = 1024;
const parsedListQueries = new Map<string, ListDropsQuery | null>();

/**
 * A well-formed list query, parsed once per query string: agents repeat the same list, and zod's parse
 * of its filters was a tenth of a list's CPU (issue 35). Frozen, since every request shares it.
 */
function parsedListQuery(search: string): ListDropsQuery | null {
  if (search.length > PARSED_LIST_QUERY_MAX_CHARS) return parsedAnew(search);
  let query = parsedListQueries.get(search);
  if (query === undefined) {
    query = parsedAnew(search);
    if (parsedListQueries.size >= PARSED_LIST_QUERIES) parsedListQueries.clear();
    parsedListQueries.set(search, query);
  }
  return query;
}

function parsedAnew(search: string): ListDropsQuery | null {
  const parsed = listDropsQuerySchema.safeParse(listQueryInput(new URLSearchParams(search)));
  return parsed.success ? frozen(parsed.data) : null;
}

function frozen(query: ListDropsQuery): ListDropsQuery {
  for (const pair of query.metadata) Object.freeze(pair);
  Object.freeze(query.metadata);
  return Object.freeze(query);
}

/**
 * GET /api/drops: `search` is the request's query string, filters and page as the spec words them. A
 * well-formed query's page is read with the token, as every drop of the account: a drop-limited
 * caller's is read again (an unusual credential pays a round trip, rather than every list another).
 */
export const readDropList = tokenRead<{ search: string }, Awaited<ReturnType<typeof listDrops>>, ListedDropRow[], ListAlong>(
  "listDrops",
  ({ caller, params, along }) => {
    const query = along?.call.query ?? parseInput(listDropsQuerySchema, listQueryInput(new URLSearchParams(params.search)));
    return listDrops(caller.userId, { ...query, onlySlugs: caller.drops }, caller.drops === null ? along : undefined);
  },
  ({ search }) => {
    // A malformed query is refused after the caller is known, as every other request is.
    const query = parsedListQuery(search);
    return query ? { ...dropListPage(CALLER_ACCOUNT, query), query } : null;
  },
);

export function listDropsRoute(request: Request): Promise<Response> {
  return readDropList.route(request, { params: Promise.resolve({ search: new URL(request.url).search }) });
}
