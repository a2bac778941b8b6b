import { authenticateBearer, type TokenCaller } from "@/lib/accounts/tokens";
import { errorResponse } from "./responses";

type RouteContext<P> = { params: Promise<P> };
export type TokenHandler<P> = (input: { request: Request; caller: TokenCaller; params: P }) => Promise<Response>;

/** Route handler glue: authenticate the bearer token, await params, and turn every throw into the Error shape. */
export function withToken<P = Record<string, never>>(handler: TokenHandler<P>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const caller = await authenticateBearer(request.headers.get("authorization"));
      return await handler({ request, caller, params: await context.params });
    } catch (error) {
      return errorResponse(error);
    }
  };
}
