// A render worker: indexes, renders and writes the documents it is handed, one at a time, and
// hands back what the build reports of each.

import { parentPort, workerData } from "node:worker_threads";
import type { Site } from "../site.js";
import { type DocumentTask, writeDocument } from "./document-output.js";

const { site, root } = workerData as { site: Site; root: string };

parentPort!.on("message", (task: DocumentTask & { seq: number }) => {
  try {
    parentPort!.postMessage({ seq: task.seq, result: writeDocument(site, root, task, false) });
  } catch (e) {
    parentPort!.postMessage({ seq: task.seq, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
