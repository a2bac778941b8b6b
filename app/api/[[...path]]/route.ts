import { unknownPathHandlers } from "@/lib/api/responses";

export const dynamic = "force-dynamic";

// Unknown /api paths, and /api itself.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPathHandlers();
