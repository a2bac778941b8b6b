import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { Session } from "node:inspector/promises";
const s = new Session(); s.connect(); await s.post("Profiler.enable"); await s.post("Profiler.setSamplingInterval", { interval: 200 });
const dir = process.env.PROFDIR; mkdirSync(dir, { recursive: true }); let n = 0;
async function phase(name, fn) { await s.post("Profiler.start"); const c0 = process.cpuUsage(); const r = await fn(); const c = process.cpuUsage(c0); const { profile } = await s.post("Profiler.stop"); writeFileSync(`${dir}/${String(n++).padStart(2, "0")}-${name.replace(/\W/g, "_")}.cpuprofile`, JSON.stringify(profile)); console.log(name, ((c.user + c.system) / 1000).toFixed(0), "ms cpu"); return r; }
const next = await phase("import-next", async () => (await import("next")).default);
const built = JSON.parse(readFileSync(".next/required-server-files.json", "utf8"));
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built.config);
const app = next({ dev: false, dir: process.cwd(), hostname: "127.0.0.1", port: 3999, httpServer: createServer() });
await phase("prepare", () => app.prepare());
const door = await phase("door-load", () => globalThis[Symbol.for("htmldrop.front-door")]());
await phase("door-start", () => door.start());
const server = createServer((q, r) => door.serve(q, r)); await new Promise((r) => server.listen(3999, "127.0.0.1", r));
process.env.__NEXT_PRIVATE_ORIGIN = "http://127.0.0.1:3999"; door.open(app.getRequestHandler(), process.env.__NEXT_PRIVATE_ORIGIN);
for (const path of (process.env.PATHS ?? "/api/health,/api/health,/,/").split(",")) await phase(path, async () => (await fetch("http://127.0.0.1:3999" + path)).text());
process.exit(0);
