// Rendered on every request, like htmldrop's uncached pages: the cheapest dynamic page Next.js serves.
export const dynamic = "force-dynamic";

export default function Page() {
  return (
    <main>
      <h1>Minimal dynamic page</h1>
      <p>Rendered at {new Date().toISOString()}</p>
      <ul>
        <li>one</li>
        <li>two</li>
        <li>three</li>
      </ul>
    </main>
  );
}
