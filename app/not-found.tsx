export default function NotFound() {
  return (
    <main>
      <h1>Not found</h1>
      <p>There is nothing at this address. If someone shared a link with you, ask them for a fresh one.</p>
    </main>
  );
}
