// Reading and managing drops: ls, get, versions, diff, rm, passcode, stats.
import { connect } from "./api";
import { CliError, EXIT, usageError } from "./errors";
import { emphasis, formatBytes, formatTime, note, print, printDiff, printJson, printTable } from "./output";
import { parseTags } from "./parse";
import { ask, confirm } from "./prompt";
import type { Drop, DropList, Stats, VersionItem } from "./types";

const PAGE_SIZE = "200";

export function dropPath(slug: string, rest = ""): string {
  return `/api/drops/${encodeURIComponent(slug)}${rest}`;
}

function formatTags(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key}=${value}`)
    .join(",");
}

export async function list(options: { tag?: string[]; json?: boolean }): Promise<void> {
  const client = connect();
  const query = new URLSearchParams({ pageSize: PAGE_SIZE });
  for (const [key, value] of Object.entries(parseTags(options.tag ?? []))) query.append(`metadata.${key}`, value);
  const drops: Drop[] = [];
  for (let page = 1, pages = 1; page <= pages; page += 1) {
    query.set("page", String(page));
    const answer = await client.json<DropList>("/api/drops", { query });
    drops.push(...answer.data);
    pages = answer.pagination.total_pages;
  }
  if (options.json) return printJson(drops);
  if (drops.length === 0) return note(options.tag ? "No drops carry these tags." : "No drops yet: publish one with htmldrop publish FILE.");
  printTable(
    ["SLUG", "VERSION", "VIEWS", "UPDATED", "TAGS", "TITLE"],
    drops.map((drop) => [drop.slug, `v${drop.latest_version}`, String(drop.view_count), formatTime(drop.updated_at), formatTags(drop.metadata), drop.title]),
  );
}

export async function get(slug: string, options: { json?: boolean }): Promise<void> {
  const drop = await connect().json<Drop>(dropPath(slug));
  if (options.json) return printJson(drop);
  const rows: [string, string | undefined][] = [
    ["Title", emphasis(drop.title)],
    ["Description", drop.description],
    ["URL", drop.url],
    ["Raw", drop.raw_url],
    ["Version", String(drop.latest_version)],
    ["Views", String(drop.view_count)],
    ["Passcode", drop.locked ? "set" : "none"],
    ["Tags", formatTags(drop.metadata) || undefined],
    ["Expires", drop.expires_at === undefined ? undefined : `${formatTime(drop.expires_at)}${drop.expired ? " (expired)" : ""}`],
    ["Comments", drop.comments],
    ["Access", drop.access],
    ["Created", formatTime(drop.created_at)],
    ["Updated", formatTime(drop.updated_at)],
  ];
  for (const [name, value] of rows) if (value !== undefined) print(`${`${name}:`.padEnd(13)}${value}`);
}

export async function versions(slug: string, options: { json?: boolean }): Promise<void> {
  const items = await connect().json<VersionItem[]>(dropPath(slug, "/versions"));
  if (options.json) return printJson(items);
  printTable(
    ["VERSION", "SIZE", "CONTEXT", "CREATED"],
    items.map((item) => [`v${item.version}`, formatBytes(item.size_bytes), item.has_context ? "yes" : "", formatTime(item.created_at)]),
  );
}

function versionNumber(text: string, name: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(text.replace(/^v/, ""))) throw usageError(`${name} is a version number like 3 (or v3); got "${text}".`);
  return Number(text.replace(/^v/, ""));
}

/** Without versions: the latest against the one before it. With one: that one against the latest. */
export async function diff(slug: string, from: string | undefined, to: string | undefined): Promise<void> {
  const client = connect();
  let older = from === undefined ? undefined : versionNumber(from, "FROM");
  let newer = to === undefined ? undefined : versionNumber(to, "TO");
  if (older === undefined || newer === undefined) {
    const numbers = (await client.json<VersionItem[]>(dropPath(slug, "/versions"))).map((item) => item.version);
    newer ??= numbers.at(-1)!;
    if (older === undefined) {
      const before = numbers.filter((number) => number < newer!).at(-1);
      if (before === undefined) throw new CliError(`${slug} has no version before v${newer} to compare it with.`, EXIT.refused);
      older = before;
    }
  }
  const text = await client.text(dropPath(slug, "/diff"), { query: new URLSearchParams({ from: String(older), to: String(newer) }) });
  // Identical versions have a diff of the two file names and no hunk.
  if (!/^@@/m.test(text)) note(`v${older} and v${newer} are the same.`);
  else printDiff(text);
}

export async function remove(slug: string, options: { yes?: boolean }): Promise<void> {
  const client = connect();
  if (!options.yes) {
    const drop = await client.json<Drop>(dropPath(slug));
    const versionsNote = drop.latest_version === 1 ? "its version" : "all its versions";
    if (!(await confirm(`Delete "${drop.title}" (${drop.slug}) and ${versionsNote}?`))) throw new CliError("Nothing deleted.", EXIT.refused);
  }
  await client.json(dropPath(slug), { method: "DELETE" });
  print(`Deleted ${slug}.`);
}

export async function passcode(slug: string, given: string | undefined, options: { clear?: boolean }): Promise<void> {
  if (options.clear && given !== undefined) throw usageError("Give a passcode or --clear, not both.");
  const value = options.clear ? "" : (given ?? (await ask("New passcode: ", { hidden: true })));
  if (!options.clear && value === "") throw usageError("No passcode given; use --clear to remove the gate.");
  const drop = await connect().json<Drop>(dropPath(slug, "/passcode"), { method: "POST", body: { passcode: value } });
  print(drop.locked ? `${drop.slug} now asks for the passcode.` : `${drop.slug} no longer asks for a passcode.`);
}

export async function stats(slug: string, options: { days?: string; json?: boolean }): Promise<void> {
  const query = new URLSearchParams(options.days === undefined ? {} : { days: options.days });
  const answer = await connect().json<Stats>(dropPath(slug, "/stats"), { query });
  if (options.json) return printJson(answer);
  const views = (count: number) => `${count} view${count === 1 ? "" : "s"}`;
  print(`${views(answer.total_views)} from ${answer.from} to ${answer.to} (${answer.days} days, UTC); ${views(answer.view_count)} in all.`);
  const days = answer.daily.filter((day) => day.views > 0);
  if (days.length > 0) {
    print();
    printTable(["DAY", "VIEWS"], days.map((day) => [day.date, String(day.views)]));
  }
  if (answer.versions.length > 0) {
    print();
    printTable(["VERSION", "VIEWS"], answer.versions.map((entry) => [`v${entry.version}`, String(entry.views)]));
  }
}
