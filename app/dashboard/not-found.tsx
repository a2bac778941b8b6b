/**
 * A dashboard page with nothing for this account (a missing drop, or another account's: the same words
 * either way), drawn inside the dashboard's layout so its navigation stays.
 */
export default function DashboardNotFound() {
  return (
    <main>
      <h1>Not found</h1>
      <p>There is nothing of yours at this address: it may have been deleted, or it belongs to another account.</p>
      <p>
        <a href="/dashboard">Back to your drops</a>
      </p>
    </main>
  );
}
