import type { Metadata } from "next";
import { ConnectGuides, InlineMarkdown } from "@/app/_components/connect-guides";
import styles from "@/app/_components/discovery.module.css";
import { connectGuides, publicUrlNote } from "@/lib/discovery/connect";
import { discoveryFacts } from "@/lib/discovery/facts";
import { buildOpenApiDocument } from "@/lib/discovery/openapi";
import { TryIt } from "./try-it";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference" };

type Json = Record<string, any>;

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function resolveSchema(document: Json, schema: Json | undefined): { name?: string; schema?: Json } {
  const reference = schema?.$ref as string | undefined;
  if (reference) {
    const name = reference.split("/").at(-1)!;
    return { name, schema: document.components.schemas[name] };
  }
  const itemsRef = schema?.items?.$ref as string | undefined;
  if (itemsRef) {
    const name = itemsRef.split("/").at(-1)!;
    return { name: `${name}[]`, schema: document.components.schemas[name] };
  }
  return { schema };
}

function Operation({ document, method, path, operation }: { document: Json; method: string; path: string; operation: Json }) {
  const body = operation.requestBody?.content?.["application/json"];
  const bodySchema = resolveSchema(document, body?.schema);
  const needsToken = (operation.security ?? []).length > 0;
  return (
    <details className={styles.op} id={operation.operationId}>
      <summary>
        <span className={`${styles.method} ${styles[method] ?? ""}`}>{method}</span>
        <span className={styles.path}>{path}</span>
        <span className={styles.muted}>
          {operation.summary}
          {needsToken ? " · token" : ""}
        </span>
      </summary>
      <div className={styles.opBody}>
        {operation.description && <p>{operation.description}</p>}
        {operation.parameters && (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>parameter</th>
                <th>in</th>
                <th>type</th>
                <th>description</th>
              </tr>
            </thead>
            <tbody>
              {(operation.parameters as Json[]).map((parameter) => (
                <tr key={`${parameter.in}-${parameter.name}`}>
                  <td>
                    <code>{parameter.name}</code>
                    {parameter.required ? " *" : ""}
                  </td>
                  <td>{parameter.in}</td>
                  <td>
                    <code>{parameter.schema?.enum ? parameter.schema.enum.join(" | ") : parameter.schema?.type}</code>
                  </td>
                  <td>{parameter.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {body && (
          <>
            <h4>Request body: {bodySchema.name}</h4>
            <details>
              <summary>Schema</summary>
              <pre>
                <code>{pretty(bodySchema.schema)}</code>
              </pre>
            </details>
          </>
        )}
        <h4>Responses</h4>
        <table className={styles.table}>
          <tbody>
            {Object.entries(operation.responses as Json).map(([status, response]) => {
              const content = response.content ?? {};
              const json = content["application/json"];
              const schema = resolveSchema(document, json?.schema);
              return (
                <tr key={status}>
                  <td>
                    <code>{status}</code>
                  </td>
                  <td>
                    {response.description} <span className={styles.muted}>{Object.keys(content).join(", ")}</span>
                    {schema.name && (
                      <details>
                        <summary>{schema.name}</summary>
                        <pre>
                          <code>{pretty(json.example ?? schema.schema)}</code>
                        </pre>
                      </details>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <TryIt
          method={method}
          path={path}
          pathParams={((operation.parameters ?? []) as Json[]).filter((parameter) => parameter.in === "path").map((parameter) => parameter.name as string)}
          needsToken={needsToken}
          exampleBody={body ? pretty(body.example ?? {}) : undefined}
        />
      </div>
    </details>
  );
}

/** The document's security schemes: what a token is and, for OAuth, the flow's endpoints and scopes. */
function SecuritySchemes({ document }: { document: Json }) {
  return (
    <>
      {Object.entries(document.components.securitySchemes as Json).map(([name, scheme]) => {
        const flow = scheme.flows?.authorizationCode as Json | undefined;
        return (
          <div key={name} className={styles.card} id={`security-${name}`}>
            <h3>
              <code>{name}</code> <span className={styles.muted}>{scheme.type === "oauth2" ? "OAuth 2.1, authorization code" : `${scheme.scheme} token`}</span>
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
                  {Object.entries(flow.scopes as Record<string, string>).map(([scope, description]) => (
                    <tr key={scope}>
                      <th>
                        <code>{scope}</code>
                      </th>
                      <td>{description}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        );
      })}
    </>
  );
}

/** The API reference, rendered from the same document /openapi.json serves. */
export default function DocsPage() {
  const document = buildOpenApiDocument() as Json;
  const facts = discoveryFacts();
  const operations = Object.entries(document.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, operation]) => ({ path, method, operation: operation as Json })),
  );
  return (
    <main>
      <h1>{document.info.title}</h1>
      <p className={styles.muted}>
        Version {document.info.version} · OpenAPI {document.openapi} · <a href="/openapi.json">/openapi.json</a> · agents start at <a href="/api/onboard">/api/onboard</a>
      </p>
      <p>{document.info.summary} Authenticated operations take <code>Authorization: Bearer &lt;token&gt;</code>; every error has the Error shape, switch on <code>error.code</code>.</p>
      <section id="connect-by-url">
        <h2>Connect an assistant by URL</h2>
        <p>
          Give an MCP client only <code>{facts.mcpUrl}</code>: it finds htmldrop&apos;s OAuth server from the 401&apos;s <code>resource_metadata</code>, and you approve it in
          the browser. <InlineMarkdown text={publicUrlNote(facts)} />
        </p>
        <ConnectGuides guides={connectGuides(facts)} />
      </section>
      <section id="authentication">
        <h2>Authentication</h2>
        <p>Every operation marked &ldquo;token&rdquo; takes either scheme: an API token, or an OAuth access token issued for its resource.</p>
        <SecuritySchemes document={document} />
      </section>
      {(document.tags as { name: string }[]).map((tag) => (
        <section key={tag.name}>
          <h2>{tag.name}</h2>
          {operations
            .filter((entry) => entry.operation.tags?.includes(tag.name))
            .map((entry) => (
              <Operation key={`${entry.method} ${entry.path}`} document={document} {...entry} />
            ))}
        </section>
      ))}
    </main>
  );
}
