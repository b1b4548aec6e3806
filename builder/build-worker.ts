// A build worker: writes the documents it is handed, one at a time, and reports each result.

import { parentPort, workerData } from "node:worker_threads";
import { type DocumentTask, writeDocument } from "./document-output.js";
import type { Site } from "./site.js";

const { site, root, inPlace } = workerData as { site: Site; root: string; inPlace: boolean };

parentPort!.on("message", (task: DocumentTask & { seq: number }) => {
  try {
    parentPort!.postMessage({ seq: task.seq, result: writeDocument(site, root, task, inPlace) });
  } catch (e) {
    parentPort!.postMessage({ seq: task.seq, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
