// publish (POST, or the spec's lookup-then-mutate recipe with --upsert) and update (PUT).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { connect, type Client } from "./api";
import { openInBrowser } from "./browser";
import { dropPath } from "./drops";
import { usageError } from "./errors";
import { note, print, printJson } from "./output";
import { htmlTitle, parseExpiry, parseTags } from "./parse";
import { readStdin } from "./prompt";
import type { Drop, DropList } from "./types";

const TITLE_MAX_CHARS = 200;

export type Source = { html: string; label: string; file: string };

export async function readSource(file: string): Promise<Source> {
  if (file === "-") return { html: await readStdin(), label: "stdin", file };
  return { html: readText(file), label: basename(file), file };
}

export function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw usageError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

/** A new drop's title: the one given, else the document's <title>, else the file's name. */
export function titleFor(source: Source, given: string | undefined): string {
  if (given !== undefined) return given;
  const fromDocument = htmlTitle(source.html);
  if (fromDocument) return [...fromDocument].slice(0, TITLE_MAX_CHARS).join("");
  if (source.file !== "-") return basename(source.file, extname(source.file));
  throw usageError("The HTML has no <title>: give one with --title.");
}

/** Fields that PUT and POST share, from the options that set them. */
type ContentOptions = { description?: string; context?: string; expires?: string };

function contentFields(options: ContentOptions): Record<string, unknown> {
  return {
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(options.context !== undefined ? { context: readText(options.context) } : {}),
    ...(options.expires !== undefined ? parseExpiry(options.expires) : {}),
  };
}

export type PublishOptions = ContentOptions & {
  title?: string;
  tag?: string[];
  upsert?: string[];
  passcode?: string;
  idempotencyKey?: string;
  json?: boolean;
  open?: boolean;
};

export async function publish(file: string, options: PublishOptions): Promise<void> {
  const source = await readSource(file);
  const upsert = parseTags(options.upsert ?? [], "--upsert");
  const tags = parseTags(options.tag ?? []);
  const repeated = Object.keys(tags).find((key) => Object.keys(upsert).some((other) => other.toLowerCase() === key.toLowerCase()));
  if (repeated) throw usageError(`--tag ${repeated} repeats an --upsert key; the --upsert pair already tags the drop.`);
  const fields = contentFields(options);
  const client = connect();

  const match = Object.keys(upsert).length > 0 ? await findFirst(client, upsert) : null;
  let drop: Drop;
  if (match) {
    drop = await client.json<Drop>(dropPath(match.slug), {
      method: "PUT",
      uploadLabel: source.label,
      body: {
        html: source.html,
        ...(options.title !== undefined ? { title: options.title } : {}),
        ...(options.tag?.length ? { metadata: { ...upsert, ...tags } } : {}),
        ...fields,
      },
    });
    // PUT takes no passcode; it has an endpoint of its own.
    if (options.passcode !== undefined) drop = await client.json<Drop>(dropPath(drop.slug, "/passcode"), { method: "POST", body: { passcode: options.passcode } });
    note(`Updated ${drop.slug}: version ${drop.latest_version}.`);
  } else {
    const metadata = { ...upsert, ...tags };
    drop = await client.json<Drop>("/api/drops", {
      method: "POST",
      uploadLabel: source.label,
      // A retry after a lost answer gets the first answer back, not a second drop.
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
      body: {
        title: titleFor(source, options.title),
        html: source.html,
        ...(Object.keys(metadata).length ? { metadata } : {}),
        ...(options.passcode !== undefined ? { passcode: options.passcode } : {}),
        ...fields,
      },
    });
    note(`Created ${drop.slug}: version ${drop.latest_version}.`);
  }
  report(drop, options);
}

/** The spec's lookup: the first of the caller's drops that carries every pair (newest first). */
async function findFirst(client: Client, pairs: Record<string, string>): Promise<Drop | null> {
  const query = new URLSearchParams({ pageSize: "1" });
  for (const [key, value] of Object.entries(pairs)) query.append(`metadata.${key}`, value);
  return (await client.json<DropList>("/api/drops", { query })).data[0] ?? null;
}

export type UpdateOptions = ContentOptions & { title?: string; tag?: string[]; resolve?: string[]; json?: boolean; open?: boolean };

export async function update(slug: string, file: string, options: UpdateOptions): Promise<void> {
  const source = await readSource(file);
  const drop = await connect().json<Drop>(dropPath(slug), {
    method: "PUT",
    uploadLabel: source.label,
    body: {
      html: source.html,
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.tag?.length ? { metadata: parseTags(options.tag) } : {}),
      ...(options.resolve?.length ? { resolves: options.resolve } : {}),
      ...contentFields(options),
    },
  });
  note(`Updated ${drop.slug}: version ${drop.latest_version}.`);
  report(drop, options);
}

function report(drop: Drop, options: { json?: boolean; open?: boolean }): void {
  if (options.json) printJson(drop);
  else print(drop.url);
  if (options.open && !openInBrowser(drop.url)) note("No browser to open here; the URL is above.");
}
