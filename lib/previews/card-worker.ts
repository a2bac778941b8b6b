// Draws the preview cards that card-pool.ts sends, away from the event loop.
import "./no-fetch";
import { answerJobs } from "@/lib/workers/worker-jobs";
import type { CardContent } from "./card-tag";
import { renderPreviewCard } from "./render";

answerJobs((content: CardContent) => renderPreviewCard(content).catch((error: unknown) => {
  console.error("htmldrop: the preview card worker could not draw a card:", (error as Error).message);
  return null;
}));
