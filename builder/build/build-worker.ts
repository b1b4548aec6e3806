// A render worker: indexes and renders the documents it is handed, one at a time, and hands
// their files back in one transferable buffer. Only the main thread writes: on the measured
// disk, two threads creating files at once were slower than one.

import { parentPort, workerData } from "node:worker_threads";
import type { Site } from "../site.js";
import { CollectingSink, packFiles } from "../tree/tree-writer.js";
import { type DocumentTask, writeDocument } from "./document-output.js";

const { site, root } = workerData as { site: Site; root: string };

parentPort!.on("message", (task: DocumentTask & { seq: number }) => {
  try {
    const sink = new CollectingSink();
    const result = writeDocument(site, root, task, false, sink);
    const packed = packFiles(sink.files);
    parentPort!.postMessage({ seq: task.seq, result, packed }, [packed.data.buffer as ArrayBuffer]);
  } catch (e) {
    parentPort!.postMessage({ seq: task.seq, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
