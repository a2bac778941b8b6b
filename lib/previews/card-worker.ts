// Draws the preview cards that card-pool.ts sends, away from the event loop.
import { register } from "node:module";
import { answerJobs } from "@/lib/workers/worker-jobs";
import type { CardContent } from "./card-tag";
import { renderPreviewCard } from "./render";

// next/og draws with sharp when it can import it, and sharp must not be loaded first by a worker thread on
// glibc (its libvips would be unloaded when the worker stops): this worker draws with resvg instead.
// The hook is this thread's own; the rest of the process resolves modules as before.
register(`data:text/javascript,${encodeURIComponent('export async function resolve(specifier, context, next) { if (specifier === "sharp") throw Object.assign(new Error("sharp is not used on the preview card worker"), { code: "ERR_MODULE_NOT_FOUND" }); return next(specifier, context); }')}`);

answerJobs((content: CardContent) => renderPreviewCard(content).catch((error: unknown) => {
  console.error("htmldrop: the preview card worker could not draw a card:", (error as Error).message);
  return null;
}));
