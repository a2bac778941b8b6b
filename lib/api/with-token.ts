import type { Caller } from "@/lib/accounts/credentials";
import { authenticateBearer } from "@/lib/accounts/tokens";
import { authorize } from "./authorize";
import { operationById, type OperationId } from "./operations";
import { errorResponse } from "./responses";

type RouteContext<P> = { params: Promise<P> };
export type TokenHandler<P> = (input: { request: Request; caller: Caller; params: P }) => Promise<Response>;

/**
 * Route handler glue: authenticate the bearer token, check it may call `operation` (its scope and, for
 * a route with a [slug] segment, that drop), await params, and turn every throw into the Error shape.
 * The check runs before the body is read, so a refused call costs nothing.
 */
export function withToken<P = Record<string, never>>(operationId: OperationId, handler: TokenHandler<P>) {
  const operation = operationById(operationId);
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const caller = await authenticateBearer(request.headers.get("authorization"));
      const params = await context.params;
      authorize(caller, operation, (params as { slug?: unknown } | undefined)?.slug as string | undefined);
      return await handler({ request, caller, params });
    } catch (error) {
      return errorResponse(error);
    }
  };
}
