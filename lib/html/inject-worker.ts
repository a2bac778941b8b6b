// Runs planInjection away from the event loop: a 2 MB document can take a second to parse.
import { answerJobs } from "@/lib/workers/worker-jobs";
import { planInjection } from "./inject";

answerJobs((bytes: Uint8Array) => planInjection(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")));
