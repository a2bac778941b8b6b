import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { signInPath } from "@/lib/auth/paths";
import { cache } from "react";
import { publicPath, viewerPath } from "@/lib/drops/public-urls";
import { COMPARE_LIMITS, getComparePage, type ComparePage, type RenderedChanges } from "@/lib/serving/compare";
import { DROP_SANDBOX } from "@/lib/serving/raw";
import { gateError } from "@/lib/serving/viewer";
import { Gate } from "../../gate";
import { CompareFrames } from "./compare-frames";
import { DiffTable } from "./diff-table";
import styles from "./compare.module.css";

type Query = Record<string, string | string[] | undefined>;
type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Query> };

// generateMetadata and the page share one lookup per request.
const loadComparePage = cache(async (slug: string, from: Query[string], to: Query[string]): Promise<ComparePage> => {
  return getComparePage(slug, { from, to }, (await headers()).get("cookie"));
});

async function load({ params, searchParams }: Props) {
  const [{ slug }, query] = await Promise.all([params, searchParams]);
  return { page: await loadComparePage(slug, query.from, query.to), query };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { page } = await load(props);
  const robots = { index: false, follow: false };
  if (page.kind === "not_found" || page.kind === "sign_in") return { title: "Not found", robots };
  if (page.kind === "gate") return { title: "Locked drop", robots };
  return { title: `v${page.from.version} and v${page.to.version} · ${page.title}`, robots };
}

export default async function ComparePageRoute(props: Props) {
  const { page, query } = await load(props);
  if (page.kind === "not_found") notFound();
  if (page.kind === "sign_in") redirect(signInPath(page.path));
  if (page.kind === "gate") {
    const posted = (value: Query[string]) => (typeof value === "string" ? value : undefined);
    return <Gate slug={page.slug} version={null} error={gateError(query.error)} compare={{ from: posted(query.from), to: posted(query.to) }} />;
  }
  const pick = (name: "from" | "to", label: string, selected: number) => (
    <label>
      {label}{" "}
      <select name={name} defaultValue={String(selected)}>
        {page.versions.map((number) => (
          <option key={number} value={number}>
            v{number}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className={styles.compare}>
      <header className={styles.bar}>
        <h1 className={styles.title}>Compare versions of {page.title}</h1>
        <form method="get" action={publicPath(page.slug, "compare")} className={styles.picker}>
          {pick("from", "From", page.from.version)}
          {pick("to", "To", page.to.version)}
          <button type="submit">Compare</button>
        </form>
        <a href={viewerPath(page.slug, page.to.version)}>Back to the drop</a>
      </header>
      <main className={styles.main} aria-label="Compare versions">
        <section aria-labelledby="rendered" className={styles.rendered}>
          <h2 id="rendered">Rendered</h2>
          <p>{renderedSummary(page.rendered)}</p>
          <CompareFrames title={page.title} sandbox={DROP_SANDBOX} from={page.from} to={page.to} changes={page.rendered.changes ?? []} />
        </section>
        <section aria-labelledby="source">
          <h2 id="source">Source</h2>
          {page.diff === null ? (
            <p>These versions differ too much to show their source side by side here. Open each version to read it in full.</p>
          ) : page.diff.hunks.length === 0 ? (
            <p>The source of the two versions is the same.</p>
          ) : (
            <>
              <p>
                {page.diff.addedLines} {page.diff.addedLines === 1 ? "line" : "lines"} added, {page.diff.removedLines} removed, going from version {page.from.version} to
                version {page.to.version}.
              </p>
              {page.diff.hunks.some((hunk) => hunk.lines.some((line) => line.words?.some((word) => word.changed))) ? (
                <p>Within a changed line, the words that changed are marked: struck through where removed, underlined where added.</p>
              ) : null}
              <DiffTable hunks={page.diff.hunks} from={page.from.version} to={page.to.version} />
              {page.diff.hiddenLines > 0 ? (
                <p>
                  {page.diff.hiddenLines.toLocaleString("en")} more {page.diff.hiddenLines === 1 ? "line" : "lines"} of the diff are not shown here. Open each version to read it
                  in full.
                </p>
              ) : null}
            </>
          )}
        </section>
      </main>
    </div>
  );
}

/** What the rendered view marks, said in words (the outlines need JavaScript; this does not). */
function renderedSummary(rendered: RenderedChanges): string {
  if (rendered.changes === null) {
    return rendered.reason === "too_large"
      ? `Changes are not marked in the rendered view of versions this large (over ${COMPARE_LIMITS.renderedMaxTokens.toLocaleString("en")} tags and words); the source below shows them.`
      : "These versions differ too much to mark their changes in the rendered view; the source below shows them.";
  }
  const count = rendered.changes.length + rendered.hiddenChanges;
  if (count === 0) return "The text of the two versions reads the same; any change is in the source below.";
  const marked = rendered.hiddenChanges > 0 ? ` The first ${rendered.changes.length} are marked.` : "";
  return `The text changed in ${count} ${count === 1 ? "place" : "places"}.${marked}`;
}
