export default function DropNotFound() {
  return (
    <main>
      <h1>Drop not found</h1>
      <p>There is no drop or version at this address. It may have been deleted; if someone shared the link with you, ask them for a fresh one.</p>
    </main>
  );
}
