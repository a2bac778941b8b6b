import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DROP_SANDBOX } from "@/lib/serving/raw";
import { viewBeaconPath } from "@/lib/serving/view-beacon";
import { GATE_MESSAGES, gateError, getViewerPage, type ViewerPage } from "@/lib/serving/viewer";
import styles from "./viewer.module.css";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// generateMetadata and the page share one lookup per request.
const loadViewerPage = cache(async (slug: string, version: string | undefined): Promise<ViewerPage> => {
  return getViewerPage(slug, version, (await headers()).get("cookie"));
});

async function load({ params, searchParams }: Props) {
  const [{ slug }, query] = await Promise.all([params, searchParams]);
  // A repeated ?v= is as unknown as ?v=abc.
  const version = Array.isArray(query.v) ? "" : query.v;
  return { page: await loadViewerPage(slug, version), query };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { page } = await load(props);
  if (page.kind === "not_found") return { title: "Not found" };
  if (page.kind === "gate") return { title: "Locked drop", robots: { index: false, follow: false } };
  const description = page.description ?? undefined;
  // Open Graph only for drops without a passcode: a locked drop's title never leaves the page.
  if (page.unlocked) return { title: page.title, description, robots: { index: false, follow: false } };
  return {
    title: page.title,
    description,
    openGraph: { title: page.title, description, url: page.url, type: "website", siteName: "htmldrop" },
    twitter: { card: "summary", title: page.title, description },
  };
}

export default async function ViewerPageRoute(props: Props) {
  const { page, query } = await load(props);
  if (page.kind === "not_found") notFound();
  if (page.kind === "gate") return <Gate slug={page.slug} version={page.version} error={gateError(query.error)} />;

  // The page is cached and served without rendering (lib/serving/cached-pages.ts), so it reports its own
  // view once shown; a prefetched page is never shown and runs no script.
  const beacon = `navigator.sendBeacon(${JSON.stringify(viewBeaconPath(page.slug))})`;
  return (
    <div className={styles.viewer}>
      <header className={styles.bar}>
        <div className={styles.heading}>
          <h1 className={styles.title}>{page.title}</h1>
          {page.description ? <p className={styles.description}>{page.description}</p> : null}
        </div>
        <div className={styles.tools}>
          <form method="get" action={`/p/${page.slug}`} className={styles.versions}>
            <label>
              <span className={styles.label}>Version</span>{" "}
              <select name="v" defaultValue={String(page.version)} aria-label="Version">
                {page.versions.map((version) => (
                  <option key={version.number} value={version.number}>
                    v{version.number}
                    {version.number === page.latestVersion ? " (latest)" : ""} · {new Date(version.createdAt).toISOString().slice(0, 10)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit">Show</button>
          </form>
          <a href={page.frameSrc} target="_blank" rel="noopener noreferrer">
            Open full page
          </a>
          {page.unlocked ? (
            <form method="post" action={`/p/${page.slug}/lock`}>
              <button type="submit">Lock again</button>
            </form>
          ) : null}
        </div>
        {page.context ? (
          <details className={styles.context}>
            <summary>Context for version {page.version}</summary>
            <pre>{page.context}</pre>
          </details>
        ) : null}
      </header>
      <iframe className={styles.frame} src={page.frameSrc} sandbox={DROP_SANDBOX} title={page.title} referrerPolicy="no-referrer" />
      <script dangerouslySetInnerHTML={{ __html: beacon }} />
    </div>
  );
}

function Gate({ slug, version, error }: { slug: string; version: string | null; error: keyof typeof GATE_MESSAGES | null }) {
  return (
    <main className={styles.gate}>
      <h1>This drop is locked</h1>
      <p>Enter the passcode that came with the link.</p>
      {error ? (
        <p role="alert" className={styles.error}>
          {GATE_MESSAGES[error]}
        </p>
      ) : null}
      <form method="post" action={`/p/${slug}/unlock`} className={styles.gateForm}>
        {version ? <input type="hidden" name="v" value={version} /> : null}
        <label>
          Passcode
          <input type="password" name="passcode" required autoComplete="off" autoFocus />
        </label>
        <button type="submit">Unlock</button>
      </form>
    </main>
  );
}
