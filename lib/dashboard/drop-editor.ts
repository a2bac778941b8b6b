import { getDrop, getLatestSource } from "@/lib/drops";
import { isApiError } from "@/lib/errors";

/** What the editor page opens: the drop's latest version, its number and its HTML. */
export type EditorDocument = { slug: string; title: string; version: number; html: string };

/** One of the owner's drops, opened in the editor at its latest version; null when it is missing or someone else's. */
export async function loadEditorDocument(userId: string, slug: string): Promise<EditorDocument | null> {
  try {
    const [drop, source] = await Promise.all([getDrop(userId, slug), getLatestSource(userId, slug)]);
    return { slug: drop.slug, title: drop.title, version: source.version, html: source.html };
  } catch (error) {
    if (isApiError(error) && (error.code === "not_found" || error.code === "forbidden" || error.code === "invalid_slug" || error.code === "version_not_found")) return null;
    throw error;
  }
}
