import { methodsNotServedAt } from "@/lib/api/responses";
import { handleMcpMethodNotAllowed, handleMcpPost } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleMcpPost(request);
export const GET = (request: Request) => handleMcpMethodNotAllowed(request);
export const DELETE = (request: Request) => handleMcpMethodNotAllowed(request);
export const { PUT, PATCH } = methodsNotServedAt("/mcp");
