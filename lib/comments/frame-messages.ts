// What the viewer page accepts from the drop's frame when the person selects text there. The frame also
// runs the drop's own scripts, which can post anything: a selection is read with the comment schema's
// own anchor rules and limits, and a box is only numbers. The page loads this (and zod with it) the
// first time something is selected, not with every view.
import { z } from "zod";
import { ANCHOR_LIMITS, commentAnchorSchema, type CommentAnchor } from "@/lib/schemas/comment-anchor";
import { charLength } from "@/lib/schemas/text";

const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number().min(0), height: z.number().min(0) });

export type FrameBox = z.infer<typeof boxSchema>;

/** A usable selection, one too long to anchor a comment to (with what to tell the person), or nothing selected. */
export type FrameSelection = { anchor: CommentAnchor; box: FrameBox } | { tooLong: string; box: FrameBox } | null;

const SELECTION_TOO_LONG = `Select at most ${ANCHOR_LIMITS.exactMaxChars} characters to comment on a passage.`;

/** The `selection` of a selection message; anything malformed reads as nothing selected. */
export function readFrameSelection(selection: unknown): FrameSelection {
  const parsed = z.object({ anchor: z.unknown(), box: boxSchema }).safeParse(selection);
  if (!parsed.success) return null;
  const anchor = commentAnchorSchema.safeParse(parsed.data.anchor);
  if (anchor.success) return { anchor: anchor.data, box: parsed.data.box };
  const long = z.object({ exact: z.string().refine((exact) => charLength(exact) > ANCHOR_LIMITS.exactMaxChars) }).safeParse(parsed.data.anchor);
  return long.success ? { tooLong: SELECTION_TOO_LONG, box: parsed.data.box } : null;
}
