import type { FrontDoor } from "@/lib/serving/front-door";

// Runs inside Next's server before it answers a request. It leaves server.ts (`npm start`) a loader
// for the front door, so the custom server runs on the modules Next bundled rather than a second copy
// of lib/; processes that never call it (`next start`, Vercel) load nothing more.
export function register(): void {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const loader: () => Promise<FrontDoor> = () => import("@/lib/serving/front-door").then((module) => module.createFrontDoor());
  (globalThis as Record<symbol, unknown>)[Symbol.for("htmldrop.front-door")] = loader;
}
