// Rules about text shared by the schemas, free of server-only imports: the viewer page's script checks
// what a drop's frame sends with the same schemas (lib/schemas/comment-anchor.ts).

/** Length in characters (Unicode code points), the unit of the spec's title, description and metadata limits. */
export function charLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * PostgreSQL's text type cannot hold U+0000 (the query fails); SQLite could. Every text field that reaches
 * a text column refuses it, so both databases answer alike. html is stored as bytes and keeps it.
 */
export function hasNoNul(value: string): boolean {
  return !value.includes("\u0000");
}

export function nulMessage(subject: string): string {
  return `${subject} must not contain the NUL character (U+0000)`;
}

/** Control characters other than tabs and line breaks: nothing a person types or a page shows as text. */
export function hasNoControlCharacters(value: string): boolean {
  return !/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value);
}
