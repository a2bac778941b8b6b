import { unknownApiPath } from "@/lib/api/responses";

export const dynamic = "force-dynamic";

// Without this, Next.js answers unknown /api paths (and /api itself) with its HTML not-found page.
export const GET = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
export const OPTIONS = unknownApiPath;
