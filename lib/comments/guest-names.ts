// A guest's display name is unverified text shown next to the owner's login, so it is shown as people
// read it: compatibility forms folded (NFKC: fullwidth ｃ is c), characters that draw nothing removed
// (zero-width, joiners, bidi controls), spaces collapsed. Whether it imitates the owner is decided on
// Unicode's confusables table (UTS #39, through unhomoglyph), not on a list of our own.
import unhomoglyph from "unhomoglyph";

// Default-ignorable code points draw nothing (U+200B, U+2060, U+FEFF, variation selectors, fillers);
// bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) reorder what follows them.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;

/** The name as stored and shown; empty when nothing visible is left. */
export function normalizeGuestName(name: string): string {
  return name.normalize("NFKC").replace(INVISIBLE, "").replace(/\s+/gu, " ").trim();
}

/**
 * What a name looks like, case aside: UTS #39's skeleton (Cyrillic а is a, 0 is O, rn is m) of the name
 * lowered, and lowered again after a first skeleton. The skeleton reads a capital I as l, as many fonts
 * draw it, but leaves a small i alone: lowered first, REVIEW keeps its i; mapped first, Iola is lola.
 */
function lookalikeKeys(name: string): string[] {
  const folded = normalizeGuestName(name).normalize("NFD");
  const lowered = (text: string) => text.toLowerCase().normalize("NFD");
  return [unhomoglyph(lowered(folded)), unhomoglyph(lowered(unhomoglyph(folded)))];
}

/** Whether a (normalized) guest name could be read as `login`, in either reading. */
export function looksLike(name: string, login: string): boolean {
  const loginKeys = new Set(lookalikeKeys(login));
  return lookalikeKeys(name).some((key) => loginKeys.has(key));
}
