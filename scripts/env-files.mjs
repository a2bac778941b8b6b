// Imported first by `npm start` and every operator command: settings in `.env.production.local`,
// `.env.local`, `.env.production` and `.env`, read as Next.js reads them (the environment wins), before
// anything reads the configuration. The server, its operator commands and Next's pages then agree.
import nextEnv from "@next/env";

// Which files were read goes to stderr: an operator command's stdout is its answer (a token, a report).
nextEnv.loadEnvConfig(process.cwd(), false, { info: (...lines) => console.error(...lines), error: (...lines) => console.error(...lines) });
