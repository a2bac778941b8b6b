import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { deleteVersion, getVersion } from "@/lib/drops";
import { versionNumberSchema } from "@/lib/schemas/drops";
import { parseInput } from "@/lib/schemas/errors";

export const dynamic = "force-dynamic";

type Params = { slug: string; n: string };

export const GET = withToken<Params>("getVersion", async ({ caller, params }) =>
  jsonResponse(await getVersion(caller.userId, params.slug, parseInput(versionNumberSchema, params.n, "n"))),
);

export const DELETE = withToken<Params>("deleteVersion", async ({ caller, params }) =>
  jsonResponse(await deleteVersion(caller.userId, params.slug, parseInput(versionNumberSchema, params.n, "n"))),
);

export const { POST, PUT, PATCH } = methodsNotServedAt("/api/drops/{slug}/v/{n}");
