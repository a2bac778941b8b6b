import type { Metadata } from "next";
import { requireSessionUser } from "@/lib/auth/session";
import { now } from "@/lib/clock";
import { DASHBOARD_MESSAGES, dashboardNotice } from "@/lib/dashboard/messages";
import { PATTERN_FORM_LIMITS, type PatternValues } from "@/lib/dashboard/pattern-form";
import { pathWithQuery } from "@/lib/dashboard/paths";
import { builtinPatterns, findPattern, listPatterns, PATTERN_CATALOG_PATH } from "@/lib/patterns";
import type { Pattern } from "@/lib/schemas/patterns";
import styles from "../dashboard.module.css";
import { Notice } from "../ui/notice";
import { PatternForm } from "../ui/pattern-form";
import { PatternTable, type PatternRow } from "../ui/pattern-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Patterns" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** What the form opens with: a new pattern, one of the account's own (?edit=) or a copy of a built-in one (?from=). */
type Opening = { mode: "new" } | { mode: "edit" | "from"; pattern: Pattern } | { mode: "missing"; message: string };

async function opening(userId: string, params: Record<string, string | string[] | undefined>): Promise<Opening> {
  if (typeof params.edit === "string") {
    const pattern = await findPattern(userId, params.edit);
    return pattern?.source === "account" ? { mode: "edit", pattern } : { mode: "missing", message: DASHBOARD_MESSAGES.patternNotFound };
  }
  if (typeof params.from === "string") {
    // Without an account: the built-in one even where the account has replaced it.
    const pattern = await findPattern(null, params.from);
    return pattern ? { mode: "from", pattern } : { mode: "missing", message: DASHBOARD_MESSAGES.builtinPatternNotFound };
  }
  return { mode: "new" };
}

function initialValues(open: Opening): PatternValues {
  if (open.mode !== "edit" && open.mode !== "from") return {};
  const { name, markdown, template } = open.pattern;
  return { name, markdown, template: template ?? "" };
}

function FormHeading({ open }: { open: Opening }) {
  if (open.mode === "edit") {
    return (
      <>
        <h2 id="pattern-form-heading">{`Edit ${open.pattern.name}`}</h2>
        <p className={styles.muted}>
          Saving replaces it for your agents. To keep it and make another, change the name here and in the front matter. <a href="/dashboard/patterns">Add a new pattern instead</a>
        </p>
      </>
    );
  }
  if (open.mode === "from") {
    return (
      <>
        <h2 id="pattern-form-heading">{`New pattern from ${open.pattern.name}`}</h2>
        <p className={styles.muted}>
          A copy of the built-in pattern to make your own. Saved under the same name, yours takes its place for your agents; to keep both, change the name here and in
          the front matter. <a href="/dashboard/patterns">Start from an empty form instead</a>
        </p>
      </>
    );
  }
  return (
    <>
      <h2 id="pattern-form-heading">Add a pattern</h2>
      <p className={styles.muted}>Or start from a built-in one above, or edit one of yours.</p>
    </>
  );
}

export default async function PatternsPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const user = await requireSessionUser(pathWithQuery("/dashboard/patterns", params));
  const [patterns, open] = await Promise.all([listPatterns(user.userId), opening(user.userId, params)]);
  const builtins = builtinPatterns();
  const rows: PatternRow[] = patterns.map((pattern) => {
    const replacesBuiltin = pattern.source === "account" && builtins.has(pattern.name);
    return { ...pattern, replacesBuiltin, builtinUrl: replacesBuiltin ? `${PATTERN_CATALOG_PATH}/${pattern.name}.md` : null };
  });
  const notice = open.mode === "missing" ? open.message : dashboardNotice(params.notice);
  return (
    <main className={styles.wideMain}>
      <h1>Patterns</h1>
      <p className={styles.muted}>
        A pattern tells your agents what a good page of one kind looks like: a short Markdown guide, and sometimes an HTML template to start from. Agents read them
        over MCP or the API before they write a page. The built-in ones are public; yours are private to your account, and one of yours with a built-in
        pattern’s name takes its place for your agents.
      </p>
      <Notice message={notice} tone={open.mode === "missing" ? "error" : "ok"} />
      <section aria-labelledby="pattern-list-heading">
        <h2 id="pattern-list-heading">Your agents’ patterns</h2>
        <PatternTable patterns={rows} now={now()} />
      </section>
      <section className={`${styles.card} ${styles.patternForm}`} aria-labelledby="pattern-form-heading">
        <FormHeading open={open} />
        {/* A new key for each pattern opened: the form's fields start again from its values. */}
        <PatternForm key={`${open.mode}:${"pattern" in open ? open.pattern.name : ""}`} limits={PATTERN_FORM_LIMITS} initial={initialValues(open)} />
      </section>
    </main>
  );
}
