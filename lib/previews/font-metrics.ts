// What laying out the card needs of its TrueType font: each code point's advance width, and the
// ascender and descender a line's baseline is placed by. resvg shapes and draws the text itself.

export type FontMetrics = {
  /** The code points the font maps to a glyph (cmap format 4 or 12). */
  codePoints(): Set<number>;
  /** The width of `text` at `fontSize` pixels, with `letterSpacing` pixels after each character. */
  width(text: string, fontSize: number, letterSpacing?: number): number;
  /** Above and below the baseline, in ems (descender negative). */
  ascender: number;
  descender: number;
};

function tableOffsets(font: Buffer): Map<string, number> {
  const offsets = new Map<string, number>();
  const tables = font.readUInt16BE(4);
  for (let index = 0; index < tables; index++) {
    const record = 12 + index * 16;
    offsets.set(font.toString("latin1", record, record + 4), font.readUInt32BE(record + 8));
  }
  return offsets;
}

function table(offsets: Map<string, number>, tag: string): number {
  const offset = offsets.get(tag);
  if (offset === undefined) throw new Error(`the card's font has no ${tag} table`);
  return offset;
}

/** Code point to glyph id, from the cmap's format 12 subtable, or its format 4 one. */
function readCmap(font: Buffer, cmap: number): Map<number, number> {
  const glyphs = new Map<number, number>();
  const subtables = Array.from({ length: font.readUInt16BE(cmap + 2) }, (_, index) => cmap + font.readUInt32BE(cmap + 4 + index * 8 + 4));
  const full = subtables.find((subtable) => font.readUInt16BE(subtable) === 12);
  if (full !== undefined) {
    for (let group = 0; group < font.readUInt32BE(full + 12); group++) {
      const at = full + 16 + group * 12;
      const [first, last, firstGlyph] = [font.readUInt32BE(at), font.readUInt32BE(at + 4), font.readUInt32BE(at + 8)];
      for (let code = first; code <= last; code++) glyphs.set(code, firstGlyph + code - first);
    }
    return glyphs;
  }
  const basic = subtables.find((subtable) => font.readUInt16BE(subtable) === 4);
  if (basic === undefined) throw new Error("the card's font has no cmap subtable of format 4 or 12");
  const segments = font.readUInt16BE(basic + 6) / 2;
  const ends = basic + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let segment = 0; segment < segments; segment++) {
    const [start, end] = [font.readUInt16BE(starts + segment * 2), font.readUInt16BE(ends + segment * 2)];
    const delta = font.readInt16BE(deltas + segment * 2);
    const rangeOffsetAt = rangeOffsets + segment * 2;
    const rangeOffset = font.readUInt16BE(rangeOffsetAt);
    for (let code = start; code <= end && code !== 0xffff; code++) {
      const glyph = rangeOffset === 0 ? (code + delta) & 0xffff : font.readUInt16BE(rangeOffsetAt + rangeOffset + (code - start) * 2);
      if (glyph !== 0) glyphs.set(code, glyph);
    }
  }
  return glyphs;
}

export function readFontMetrics(font: Buffer): FontMetrics {
  const offsets = tableOffsets(font);
  const head = table(offsets, "head");
  const hhea = table(offsets, "hhea");
  const hmtx = table(offsets, "hmtx");
  const unitsPerEm = font.readUInt16BE(head + 18);
  const longMetrics = font.readUInt16BE(hhea + 34);
  const glyphs = readCmap(font, table(offsets, "cmap"));
  // Glyphs past the long metrics share the last one's advance.
  const advance = (glyph: number) => font.readUInt16BE(hmtx + Math.min(glyph, longMetrics - 1) * 4) / unitsPerEm;
  const advances = new Map<number, number>();
  for (const [code, glyph] of glyphs) advances.set(code, advance(glyph));
  const missing = advance(0);
  return {
    codePoints: () => new Set(glyphs.keys()),
    width(text, fontSize, letterSpacing = 0) {
      let width = 0;
      for (const char of text) width += (advances.get(char.codePointAt(0)!) ?? missing) * fontSize + letterSpacing;
      return width;
    },
    ascender: font.readInt16BE(hhea + 4) / unitsPerEm,
    descender: font.readInt16BE(hhea + 6) / unitsPerEm,
  };
}
