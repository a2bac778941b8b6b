import { unknownPathHandlers } from "@/lib/api/responses";

export const dynamic = "force-dynamic";

// The MCP endpoint is /mcp alone; below it, an Error like any unknown API path.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPathHandlers();
