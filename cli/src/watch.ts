// watch: a new version each time the file is saved. Editors save in bursts (truncate, write, rename),
// so saves are debounced, and bytes already published are never published again.
import { createHash, randomUUID } from "node:crypto";
import { watch as watchDirectory } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { connect, type Client } from "./api";
import { dropPath } from "./drops";
import { CliError, EXIT, usageError } from "./errors";
import { formatBytes, note, print, printError } from "./output";
import { parseTags } from "./parse";
import { readText, titleFor } from "./publish";
import type { Drop } from "./types";

export type WatchOptions = { slug?: string; title?: string; tag?: string[]; debounce: string };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const clock = () => `${new Date().toISOString().slice(11, 19)} UTC`;

export async function watch(file: string, options: WatchOptions): Promise<void> {
  if (file === "-") throw usageError("watch needs a file to watch, not stdin.");
  if (!/^[0-9]{1,6}$/.test(options.debounce)) throw usageError(`--debounce is a number of milliseconds; got "${options.debounce}".`);
  const debounceMs = Number(options.debounce);
  const client = connect();
  const html = readText(file);
  const name = basename(file);

  // Watching starts before the first request, so a save made while it runs is not missed. The
  // directory is watched, not the file: an editor that saves by renaming a new file over it replaces the file.
  let timer: NodeJS.Timeout | undefined;
  let savedEarly = false;
  let onSave = () => {
    savedEarly = true;
  };
  const watcher = watchDirectory(dirname(resolve(file)), (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(timer);
    timer = setTimeout(() => onSave(), debounceMs);
  });
  const stopWatching = () => {
    watcher.close();
    clearTimeout(timer);
  };

  let slug: string;
  try {
    slug = await firstPublish(client, file, html, options);
  } catch (error) {
    stopWatching();
    throw error;
  }
  let published = sha256(html);
  let running: Promise<void> | null = null;
  let pending = false;
  let failure: CliError | null = null;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolveStop) => (stop = resolveStop));

  const publishIfChanged = async () => {
    let text: string;
    try {
      text = readText(file);
    } catch {
      return; // Mid-save (renamed away, not yet back): the next event reads it.
    }
    const hash = sha256(text);
    if (hash === published) return;
    try {
      const drop = await client.json<Drop>(dropPath(slug), { method: "PUT", body: { html: text } });
      published = hash;
      print(`v${drop.latest_version}  ${clock()}  ${formatBytes(Buffer.byteLength(text))}`);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      // Without access, or with the drop gone, no later save can succeed.
      if (error.exitCode === EXIT.auth || error.exitCode === EXIT.notFound) {
        failure = error;
        stop();
        return;
      }
      printError(`${error.message} The next save tries again.`);
    }
  };

  // One publish at a time; saves during one are published together after it.
  onSave = () => {
    if (running) {
      pending = true;
      return;
    }
    running = publishIfChanged().finally(() => {
      running = null;
      if (pending) {
        pending = false;
        onSave();
      }
    });
  };
  if (savedEarly) onSave();

  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await stopped;
  stopWatching();
  await running;
  if (failure) throw failure;
}

/** Prints the drop's URL; without --slug, first creates the drop from the file and prints its version. */
async function firstPublish(client: Client, file: string, html: string, options: WatchOptions): Promise<string> {
  if (options.slug) {
    // The drop's head is not readable as bytes, so the file as it is now counts as published: the first save publishes.
    const drop = await client.json<Drop>(dropPath(options.slug));
    print(drop.url);
    note(`Watching ${file}: each save publishes a new version of ${drop.slug} (Ctrl-C stops).`);
    return drop.slug;
  }
  const drop = await client.json<Drop>("/api/drops", {
    method: "POST",
    idempotencyKey: randomUUID(),
    body: { title: titleFor({ html, label: basename(file), file }, options.title), html, ...(options.tag?.length ? { metadata: parseTags(options.tag) } : {}) },
  });
  print(drop.url);
  print(`v${drop.latest_version}  ${clock()}  ${formatBytes(Buffer.byteLength(html))}`);
  note(`Watching ${file}: each save publishes a new version (Ctrl-C stops).`);
  return drop.slug;
}
