"use client";

/** A dashboard page that failed on the server: said inside the dashboard's layout, with a retry and a way back. */
export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main>
      <h1>Something went wrong</h1>
      <p>This page could not be shown. Nothing you had saved is lost; try again, or go back to your drops.</p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>{" "}
        <a href="/dashboard">Back to your drops</a>
      </p>
    </main>
  );
}
