// comments: read a drop's thread, or resolve comments by id.
import { connect } from "./api";
import { dropPath } from "./drops";
import { dim, emphasis, formatTime, note, print, printJson } from "./output";
import type { Comment, CommentList } from "./types";

export async function comments(slug: string, options: { unresolved?: boolean; resolve?: string[]; reopen?: string[]; json?: boolean }): Promise<void> {
  const client = connect();
  const changes = [...(options.resolve ?? []).map((id) => [id, true] as const), ...(options.reopen ?? []).map((id) => [id, false] as const)];
  if (changes.length > 0) {
    for (const [id, resolved] of changes) {
      const comment = await client.json<Comment>(dropPath(slug, `/comments/${encodeURIComponent(id)}`), { method: "PATCH", body: { resolved } });
      if (options.json) printJson(comment);
      else print(`${resolved ? "Resolved" : "Reopened"} ${comment.id}.`);
    }
    return;
  }

  const query = new URLSearchParams({ status: options.unresolved ? "open" : "all", pageSize: "200" });
  const thread: Comment[] = [];
  for (let page = 1, pages = 1; page <= pages; page += 1) {
    query.set("page", String(page));
    const answer = await client.json<CommentList>(dropPath(slug, "/comments"), { query });
    thread.push(...answer.data);
    pages = answer.pagination.total_pages;
  }
  if (options.json) return printJson(thread);
  if (thread.length === 0) return note(options.unresolved ? "No open comments." : "No comments.");
  for (const comment of thread) {
    const indent = comment.reply_to ? "    " : "";
    const state = comment.resolved_at === undefined ? "" : dim(" (resolved)");
    const reply = comment.reply_to ? ` in reply to ${comment.reply_to}` : "";
    print(`${indent}${emphasis(comment.id)}  v${comment.version}  ${comment.author.name} (${comment.author.kind})  ${formatTime(comment.created_at)}${reply}${state}`);
    for (const line of comment.quote?.split("\n") ?? []) print(`${indent}  > ${line}`);
    for (const line of comment.body.split("\n")) print(`${indent}  ${line}`);
    print();
  }
}
