import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { signInPath } from "@/lib/auth/paths";
import { cache } from "react";
import { commentFormError } from "@/lib/comments/form-messages";
import { gateError, getViewerPage, type ViewerPage } from "@/lib/serving/viewer";
import type { CommentNotice } from "../comments-panel";
import { DropView, dropMetadata } from "../drop-view";
import { ExpiredForOwner } from "../expired-for-owner";
import { Gate } from "../gate";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// generateMetadata and the page share one lookup per request.
const loadViewerPage = cache(async (slug: string, version: string | undefined, commentsPage: string | undefined): Promise<ViewerPage> => {
  return getViewerPage(slug, version, (await headers()).get("cookie"), commentsPage);
});

async function load({ params, searchParams }: Props) {
  const [{ slug }, query] = await Promise.all([params, searchParams]);
  // A repeated ?v= is as unknown as ?v=abc.
  const version = Array.isArray(query.v) ? "" : query.v;
  const commentsPage = Array.isArray(query.comments_page) ? undefined : query.comments_page;
  return { page: await loadViewerPage(slug, version, commentsPage), query };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { page } = await load(props);
  if (page.kind === "not_found" || page.kind === "sign_in") return { title: "Not found" };
  if (page.kind === "gate") return { title: "Locked drop", robots: { index: false, follow: false } };
  if (page.kind === "expired") return { title: `Expired: ${page.title}`, robots: { index: false, follow: false } };
  return dropMetadata(page);
}

export default async function ViewerPageRoute(props: Props) {
  const { page, query } = await load(props);
  if (page.kind === "not_found") notFound();
  if (page.kind === "sign_in") redirect(signInPath(page.path));
  if (page.kind === "gate") return <Gate slug={page.slug} version={page.version} error={gateError(query.error)} />;
  if (page.kind === "expired") return <ExpiredForOwner page={page} />;
  return <DropView page={page} notice={commentNotice(query)} />;
}

/** What the comment form's redirect came back with. Such URLs are never the cached page's. */
function commentNotice(query: Record<string, string | string[] | undefined>): CommentNotice | null {
  const error = commentFormError(query.comment_error);
  if (error) return { kind: "error", error };
  return query.comment === "posted" ? { kind: "posted" } : null;
}
