// Imported first by the card worker: its thread has no fetch, so nothing a card draws can reach the
// network. yoga (satori's layout engine) also loads its inlined WebAssembly through fetch when there is
// one, which loaded Node's HTTP client into the worker for about 50 ms of each worker's first card.
delete (globalThis as { fetch?: unknown }).fetch;
