// Where in a drop a comment points: the W3C Web Annotation TextQuoteSelector (the passage, and a little
// text either side of it to tell one occurrence from another). The REST and MCP bodies, the viewer's form
// and the viewer page's script, which checks what the drop's frame reports, all use this one schema, so
// it imports nothing the browser cannot load.
import { z } from "zod";
import { charLength, hasNoControlCharacters, hasNoNul, nulMessage } from "./text";

export const ANCHOR_LIMITS = { exactMaxChars: 500, contextMaxChars: 64 } as const;

function anchorText(subject: string, maxChars: number) {
  return z
    .string({ error: `${subject} must be a string` })
    .refine((text) => charLength(text) <= maxChars, `${subject} is at most ${maxChars} characters`)
    .refine(hasNoNul, nulMessage(subject))
    .refine(hasNoControlCharacters, `${subject} must not contain control characters`);
}

export const anchorExactSchema = anchorText("anchor.exact", ANCHOR_LIMITS.exactMaxChars)
  .refine((text) => text.trim().length > 0, "anchor.exact must not be empty")
  .describe(`The passage itself, as the page's text has it: at most ${ANCHOR_LIMITS.exactMaxChars} characters.`);

const anchorContextSchema = (side: "prefix" | "suffix") =>
  anchorText(`anchor.${side}`, ANCHOR_LIMITS.contextMaxChars).describe(
    `The text just ${side === "prefix" ? "before" : "after"} the passage, at most ${ANCHOR_LIMITS.contextMaxChars} characters: tells one occurrence from another.`,
  );

export const anchorPrefixSchema = anchorContextSchema("prefix");
export const anchorSuffixSchema = anchorContextSchema("suffix");

export const commentAnchorSchema = z
  .strictObject({ exact: anchorExactSchema, prefix: anchorPrefixSchema.optional(), suffix: anchorSuffixSchema.optional() })
  .describe(
    "The passage of the drop the comment is about, as a W3C Web Annotation TextQuoteSelector: exact, and optionally prefix and suffix " +
      "(the text around it). Kept and returned as sent; the viewer highlights it in the version the comment was made on.",
  );

export type CommentAnchor = z.infer<typeof commentAnchorSchema>;
