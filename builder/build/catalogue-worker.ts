// Reads a corpus's catalogue on a thread of its own and hands it over (catalogue-thread.ts).

import { parentPort, workerData } from "node:worker_threads";
import { CorpusError } from "../catalog.js";
import { loadDocuments } from "../metadata/load.js";

loadDocuments((workerData as { corpus: string }).corpus).then(
  (loaded) => parentPort!.postMessage({ loaded }),
  (e: unknown) =>
    parentPort!.postMessage({
      error:
        e instanceof CorpusError
          ? { location: { file: e.file, line: e.line, column: e.column }, description: e.description }
          : { message: e instanceof Error ? (e.stack ?? e.message) : String(e) },
    }),
);
