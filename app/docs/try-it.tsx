"use client";

import { useState } from "react";
import styles from "@/app/_components/discovery.module.css";
import { useSignedIn } from "@/app/_components/session-link";
import { Fold } from "./fold";

type Props = { method: string; path: string; pathParams: string[]; needsToken: boolean; exampleBody?: string };

/** Where the token for "Try it" comes from: the dashboard's "New token" for a signed-in person, else how to get there. */
function TokenHelp() {
  // Until the session is known, the signed-out wording: the form does not move under the pointer.
  const signedIn = useSignedIn();
  return (
    <p className={styles.tokenHelp} data-testid="token-help">
      {signedIn ? (
        <>
          Signed in as {signedIn.login ?? "you"}: create a token on <a href="/dashboard/tokens">your tokens page</a> (Create a token), then paste it here.
        </>
      ) : (
        <>
          No token yet? <a href="/api/auth/signin?callbackUrl=%2Fdashboard%2Ftokens">Sign in</a> and choose Create a token on your tokens page, or let an agent get one
          with the device-code sign-in in <a href="/api/onboard">the onboarding guide</a>.
        </>
      )}
    </p>
  );
}

/** Sends one request to this origin and shows the answer. The token stays in this page's memory only. */
export function TryIt({ method, path, pathParams, needsToken, exampleBody }: Props) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [token, setToken] = useState("");
  const [query, setQuery] = useState("");
  const [body, setBody] = useState(exampleBody ?? "");
  const [result, setResult] = useState<string | null>(null);

  async function send() {
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? "")) + (query ? `?${query.replace(/^\?/, "")}` : "");
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (exampleBody !== undefined) headers["content-type"] = "application/json";
    try {
      const response = await fetch(url, { method: method.toUpperCase(), headers, body: exampleBody !== undefined ? body : undefined });
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        shown = text.slice(0, 4000);
      }
      setResult(`${response.status} ${response.statusText}\n\n${shown}`);
    } catch (error) {
      setResult(`Request failed: ${(error as Error).message}`);
    }
  }

  return (
    <Fold className={styles.tryIt} summary="Try it">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        {needsToken && (
          <>
            <label>
              API token <input type="password" autoComplete="off" value={token} onChange={(event) => setToken(event.target.value)} placeholder="hd_..." />
            </label>
            <TokenHelp />
          </>
        )}
        {pathParams.map((name) => (
          <label key={name}>
            {name} <input value={values[name] ?? ""} onChange={(event) => setValues({ ...values, [name]: event.target.value })} required />
          </label>
        ))}
        {method === "get" && (
          <label>
            query string <input value={query} onChange={(event) => setQuery(event.target.value)} placeholder="e.g. pageSize=10" />
          </label>
        )}
        {exampleBody !== undefined && (
          <label>
            JSON body <textarea value={body} onChange={(event) => setBody(event.target.value)} />
          </label>
        )}
        <div>
          <button type="submit">
            Send {method.toUpperCase()} {path}
          </button>
        </div>
        {result !== null && (
          <pre aria-live="polite">
            <code>{result}</code>
          </pre>
        )}
      </form>
    </Fold>
  );
}
