"use client";

// A client component, though little here is interactive: a page carries what it shows twice, as HTML and
// again in the data React hydrates from. For a server component that second copy is the rendered element
// tree, several times the size of the text; for a client component it is only its props, this reference.

import { useEffect, useState } from "react";
import { GuideSteps, InlineMarkdown } from "@/app/_components/connect-guides";
import styles from "@/app/_components/discovery.module.css";
import type { ApiReference, ReferenceOperation, ReferenceSchema, ReferenceSecurityScheme, TypeText } from "@/lib/discovery/reference";
import { Fold, reveal } from "./fold";
import { TryIt } from "./try-it";

/** A link that opens a schema's declaration under Schemas. */
function SchemaLink({ name }: { name: string }) {
  return (
    <a href={`#schema-${name}`} onClick={() => reveal(`schema-${name}`)}>
      {name}
    </a>
  );
}

function Type({ text }: { text: TypeText }) {
  return text.map((part, index) => (typeof part === "string" ? part : <SchemaLink key={index} name={part.schema} />));
}

/** Descriptions are paragraphs of inline Markdown. */
function Paragraphs({ text }: { text: string }) {
  return text.split("\n\n").map((paragraph, index) => (
    <p key={index}>
      <InlineMarkdown text={paragraph} />
    </p>
  ));
}

function SecurityScheme({ scheme }: { scheme: ReferenceSecurityScheme }) {
  const { flow } = scheme;
  return (
    <div className={styles.card} id={`security-${scheme.name}`}>
      <h3>
        <code>{scheme.name}</code> <span className={styles.muted}>{scheme.kind}</span>
      </h3>
      <p>
        <InlineMarkdown text={scheme.description} />
      </p>
      {flow && (
        <table className={styles.table}>
          <tbody>
            <tr>
              <th>authorization</th>
              <td>
                <code>{flow.authorizationUrl}</code>
              </td>
            </tr>
            <tr>
              <th>token</th>
              <td>
                <code>{flow.tokenUrl}</code>
              </td>
            </tr>
            {flow.scopes.map((scope) => (
              <tr key={scope.name}>
                <th>
                  <code>{scope.name}</code>
                </th>
                <td>{scope.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** Method, path, parameters and every status with its error codes in view; the request form folded. */
function Operation({ operation }: { operation: ReferenceOperation }) {
  const { method, path, body } = operation;
  return (
    <article className={styles.op} id={operation.id}>
      <h3 className={styles.opHead}>
        <span className={`${styles.method} ${styles[method] ?? ""}`}>{method}</span>
        <span className={styles.path}>{path}</span>
        <span className={styles.muted}>{operation.needsToken ? `${operation.summary} · token` : operation.summary}</span>
      </h3>
      <div className={styles.opBody}>
        <Paragraphs text={operation.description} />
        {operation.parameters.length > 0 && (
          <table className={styles.table}>
            <tbody>
              {operation.parameters.map((parameter) => (
                <tr key={`${parameter.in}-${parameter.name}`}>
                  <td>
                    <code>{parameter.name}</code>
                    {parameter.required ? " *" : ""}
                  </td>
                  <td>{parameter.in}</td>
                  <td>
                    <code>
                      <Type text={parameter.type} />
                    </code>
                  </td>
                  <td>
                    <InlineMarkdown text={parameter.description} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <ul>
          {body && (
            <li>
              {body.required ? "Body: " : "Body (optional): "}
              <code className={styles.inlineType}>
                <Type text={body.type} />
              </code>
            </li>
          )}
          {operation.responses.map((response) => (
            <li key={response.status}>
              <code>{response.status}</code>{" "}
              {response.type && (
                <>
                  <code>
                    <Type text={response.type} />
                  </code>{" "}
                </>
              )}
              <InlineMarkdown text={response.description} />
            </li>
          ))}
          {operation.errors && (
            <li>
              <InlineMarkdown text={`Errors: ${operation.errors}`} />
            </li>
          )}
        </ul>
        <TryIt
          method={method}
          path={path}
          pathParams={operation.parameters.filter((parameter) => parameter.in === "path").map((parameter) => parameter.name)}
          needsToken={operation.needsToken}
          exampleBody={body ? JSON.stringify(body.example ?? {}, null, 2) : undefined}
        />
      </div>
    </article>
  );
}

function Schema({ schema }: { schema: ReferenceSchema }) {
  return (
    <Fold
      id={`schema-${schema.name}`}
      className={styles.op}
      summary={
        <>
          <span className={styles.path}>{schema.name}</span>
          {schema.description && (
            <span className={styles.muted}>
              <InlineMarkdown text={schema.description} />
            </span>
          )}
        </>
      }
    >
      <pre className={styles.declaration}>
        <Type text={schema.declaration} />
      </pre>
    </Fold>
  );
}

/** People's tasks first (publish, revise, share, discuss), then signing in and the rest; tags not named keep the document's order, after these. */
const TAG_ORDER = ["Drops", "Versions", "Sharing", "Comments", "Patterns", "Account", "Authentication", "OAuth", "MCP"];

function tagRank(name: string): number {
  const rank = TAG_ORDER.indexOf(name);
  return rank === -1 ? TAG_ORDER.length : rank;
}

/** A section's address: the tag's name in lower case ("authentication" stays what it was). */
function tagId(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** Whether an operation matches the filter: its method and path, summary or id contain every word typed. */
function matches(operation: ReferenceOperation, words: string[]): boolean {
  const text = `${operation.method} ${operation.path} ${operation.summary} ${operation.id}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

export function ReferencePage({ reference }: { reference: ApiReference }) {
  // The filter needs this script, so it appears only once it runs; without it every operation is shown.
  const [scripted, setScripted] = useState(false);
  const [filter, setFilter] = useState("");
  useEffect(() => setScripted(true), []);
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const tags = reference.tags
    .toSorted((a, b) => tagRank(a.name) - tagRank(b.name))
    .map((tag) => ({ ...tag, shown: tag.operations.filter((operation) => matches(operation, words)) }))
    .filter((tag) => tag.shown.length > 0 || words.length === 0);
  return (
    <main className={styles.docsMain}>
      <h1>{reference.title}</h1>
      <p className={styles.muted}>
        Version {reference.version} · OpenAPI {reference.openapi} · <a href="/openapi.json">/openapi.json</a> · agents start at <a href="/api/onboard">/api/onboard</a>
      </p>
      <div className={styles.docsLayout}>
        <nav className={styles.toc} aria-label="Contents">
          {scripted ? (
            <input type="search" className={styles.tocFilter} value={filter} onChange={(event) => setFilter(event.target.value)} aria-label="Filter operations" placeholder="Filter operations" />
          ) : null}
          <ul>
            <li>
              <a href="#connect-by-url">Connect by URL</a>
            </li>
            {tags.map((tag) => (
              <li key={tag.name}>
                <a href={`#${tagId(tag.name)}`}>
                  {tag.name} <span className={styles.muted}>{words.length > 0 ? `${tag.shown.length} of ${tag.operations.length}` : tag.operations.length}</span>
                </a>
              </li>
            ))}
            <li>
              <a href="#schemas">Schemas</a>
            </li>
            <li>
              <a href="#error-codes">Error codes</a>
            </li>
          </ul>
        </nav>
        <div className={styles.docsContent}>
          <p>
            {reference.summary} Authenticated operations take <code>Authorization: Bearer &lt;token&gt;</code> (see <a href="#authentication">Authentication</a>); every error
            has the <SchemaLink name="Error" /> shape, switch on <code>error.code</code> (<a href="#errors" onClick={() => reveal("errors")}>what each means</a>). Bodies are declared
            once, under <a href="#schemas">Schemas</a>; <code>*</code> marks a required parameter, <code>?</code> an optional field. <a href="/openapi.json">/openapi.json</a> also
            has an example of every body and error.
          </p>
          <section id="connect-by-url">
            <h2>Connect an assistant by URL</h2>
            <p>
              Give an MCP client only <code>{reference.mcpUrl}</code>: it finds htmldrop&apos;s OAuth server from the 401&apos;s <code>resource_metadata</code>, and you approve
              it in the browser. <InlineMarkdown text={reference.publicUrlNote} />
            </p>
            <div className={styles.guides} data-testid="connect-guides">
              {reference.guides.map((guide) => (
                <Fold key={guide.id} className={styles.guide} data-client={guide.id} summary={guide.client}>
                  <GuideSteps guide={guide} />
                </Fold>
              ))}
            </div>
          </section>
          {words.length > 0 && tags.length === 0 ? <p role="status">No operation matches “{filter}”.</p> : null}
          {tags.map((tag) => (
            <section key={tag.name} id={tagId(tag.name)}>
              <h2>{tag.name}</h2>
              <p className={styles.muted}>
                <InlineMarkdown text={tag.description} />
              </p>
              {/* The schemes belong with the sign-in operations: one "Authentication" heading, not two. */}
              {tag.name === "Authentication" ? (
                <>
                  <p>Every operation marked &ldquo;token&rdquo; takes either scheme: an API token, or an OAuth access token issued for its resource.</p>
                  {reference.securitySchemes.map((scheme) => (
                    <SecurityScheme key={scheme.name} scheme={scheme} />
                  ))}
                </>
              ) : null}
              {tag.shown.map((operation) => (
                <Operation key={operation.id} operation={operation} />
              ))}
            </section>
          ))}
          <section id="schemas">
            <h2>Schemas</h2>
            {reference.schemas.map((schema) => (
              <Schema key={schema.name} schema={schema} />
            ))}
          </section>
          <section id="error-codes">
            <h2>Error codes</h2>
            <p>
              Every 429 and 503 carries <code>Retry-After</code> and <code>details.retry_after_seconds</code>.
            </p>
            <Fold id="errors" className={styles.op} summary="What each code means, and what to do">
              <div className={styles.opBody}>
                <table className={styles.table}>
                  <tbody>
                    {reference.errors.map((entry) => (
                      <tr key={entry.code}>
                        <td>
                          <code>{entry.code}</code>
                        </td>
                        <td>{entry.status}</td>
                        <td>
                          <InlineMarkdown text={entry.meaning} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Fold>
          </section>
        </div>
      </div>
    </main>
  );
}
