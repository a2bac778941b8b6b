import { unknownApiPath } from "@/lib/api/responses";

export const dynamic = "force-dynamic";

// The MCP endpoint is /mcp alone; below it, an Error like any unknown API path rather than an HTML page.
export const GET = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
export const OPTIONS = unknownApiPath;
