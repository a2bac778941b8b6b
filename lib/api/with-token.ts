import type { Caller } from "@/lib/accounts/credentials";
import { authenticateBearer, authenticateBearerAlong } from "@/lib/accounts/tokens";
import type { AlongsideCall } from "@/lib/db/reads";
import { authorize } from "./authorize";
import { operationById, type Operation, type OperationId } from "./operations";
import { errorResponse, jsonResponse } from "./responses";

type RouteContext<P> = { params: Promise<P> };
export type TokenHandler<P> = (input: { request: Request; caller: Caller; params: P }) => Promise<Response>;

/** Checks an authenticated caller may call `operation` (its scope and, for a route with a [slug] segment, that drop). */
function authorized(caller: Caller, operation: Operation, params: unknown): Caller {
  authorize(caller, operation, (params as { slug?: unknown } | undefined)?.slug as string | undefined);
  return caller;
}

/** Authenticates the bearer token and checks it may call `operation`. */
async function callerFor(operation: Operation, authorization: string | null, params: unknown): Promise<Caller> {
  return authorized(await authenticateBearer(authorization), operation, params);
}

/**
 * Route handler glue: the check above, on awaited params, before the body is read (so a refused call
 * costs nothing), then the handler; every throw becomes the Error shape.
 */
export function withToken<P = Record<string, never>>(operationId: OperationId, handler: TokenHandler<P>) {
  const operation = operationById(operationId);
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const params = await context.params;
      const caller = await callerFor(operation, request.headers.get("authorization"), params);
      return await handler({ request, caller, params });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * A read that answers its result as JSON, callable without a Web Request: the front door writes the
 * result itself (lib/serving/direct-routes.ts), since building a Request and reading a Response cost more
 * than the read. It throws what withToken would turn into the Error shape. `alongside` names what the
 * read needs, read with the token in one round trip (authenticateBearerAlong) and handed to it as
 * `along`, what it named (`call`) with what was read (`found`); null (say, for a malformed slug) leaves
 * the read to fail or read on its own.
 */
export function tokenRead<P, T, R = never, A extends AlongsideCall = AlongsideCall>(
  operationId: OperationId,
  read: (input: { caller: Caller; params: P; along?: { call: A; found: R | undefined } }) => Promise<T>,
  alongside?: (params: P) => A | null,
) {
  const operation = operationById(operationId);
  const call = async (authorization: string | null, params: P): Promise<T> => {
    const along = alongside?.(params);
    if (!along) return read({ caller: await callerFor(operation, authorization, params), params });
    const { caller, row } = await authenticateBearerAlong<R>(authorization, along);
    return read({ caller: authorized(caller, operation, params), params, along: { call: along, found: row } });
  };
  const route = async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      return jsonResponse(await call(request.headers.get("authorization"), await context.params));
    } catch (error) {
      return errorResponse(error);
    }
  };
  return { call, route };
}
