// Writes many documents. A full build renders them on worker threads while this thread
// writes their files, so indexing and rendering overlap with the file system's work. Each
// document's output does not depend on the others, so the tree is the same whatever the
// number of workers.

import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Site } from "../site.js";
import { DiskSink, type PackedFiles, writePacked } from "../tree/tree-writer.js";
import { type DocumentResult, type DocumentTask, writeDocument } from "./document-output.js";

export interface PoolOptions {
  inPlace: boolean;
  /**
   * Render workers for a full build (default: cores - 1, at least 1); 0 renders on this
   * thread. Writes always happen on this thread: on a 2-core ext4 VM, two threads writing
   * took 63 s on latinLit against 48 s for one, the kernel's time for creating files tripling.
   * An in-place build (incremental) renders on this thread.
   */
  workers?: number;
  /**
   * The old-generation heap of each render worker, in MB (default WORKER_HEAP_MB). V8 grows a
   * heap with the allocation rate, not with what is live: uncapped, a worker rendering latinLit
   * held some 250 MB it did not need. A document the cap is too small for is rendered again on
   * this thread, whose heap is Node's default, so a cap never fails a build.
   */
  workerHeapMb?: number;
  onProgress?: (done: number, total: number) => void;
  /** A document that a worker's heap was too small for, rendered on this thread instead. */
  onRenderedHere?: (task: DocumentTask, heapMb: number) => void;
}

/** Enough for latinLit's largest document (17,000 passages, 5 MB of TEI) with room to spare. */
export const WORKER_HEAP_MB = 128;

/** Workers run compiled JavaScript; from TypeScript sources (the test runner) work stays on this thread. */
const WORKER_FILE = import.meta.url.endsWith(".js") ? fileURLToPath(new URL("./build-worker.js", import.meta.url)) : null;

export async function writeDocuments(site: Site, root: string, tasks: DocumentTask[], options: PoolOptions): Promise<DocumentResult[]> {
  const workers = Math.min(options.workers ?? Math.max(1, availableParallelism() - 1), tasks.length);
  const results: DocumentResult[] = new Array(tasks.length);
  if (workers < 1 || options.inPlace || WORKER_FILE === null) {
    tasks.forEach((task, i) => {
      results[i] = writeDocument(site, root, task, options.inPlace);
      options.onProgress?.(i + 1, tasks.length);
    });
    return results;
  }
  // Largest first, so no worker is left with a big document at the end.
  const order = tasks.map((_, i) => i).sort((a, b) => sizeOf(tasks[b].file) - sizeOf(tasks[a].file) || a - b);
  const sink = new DiskSink();
  let next = 0;
  let done = 0;
  const resourceLimits = { maxOldGenerationSizeMb: options.workerHeapMb ?? WORKER_HEAP_MB };
  const spawn = (): Worker => new Worker(WORKER_FILE, { workerData: { site, root }, resourceLimits });
  const live = new Set<Worker>();
  const finished = (seq: number, result: DocumentResult): void => {
    results[seq] = result;
    options.onProgress?.(++done, tasks.length);
  };
  /** One worker's loop: a document at a time; when the worker runs out of heap, its document is rendered here and a new worker goes on. */
  const run = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const worker = spawn();
      live.add(worker);
      let current = -1;
      const feed = (): void => {
        if (next >= order.length) {
          current = -1;
          resolve();
          return;
        }
        current = order[next++];
        worker.postMessage({ ...tasks[current], seq: current });
      };
      worker.on("message", (m: { seq: number; result?: DocumentResult; packed?: PackedFiles; error?: string }) => {
        if (m.error !== undefined) return reject(new Error(`building ${tasks[m.seq].id}: ${m.error}`));
        // The worker renders its next document while this thread writes this one.
        feed();
        writePacked(root, m.packed!, sink);
        finished(m.seq, m.result!);
      });
      worker.on("error", (e: Error & { code?: string }) => {
        live.delete(worker);
        if (e.code !== "ERR_WORKER_OUT_OF_MEMORY" || current < 0) return reject(e);
        try {
          options.onRenderedHere?.(tasks[current], resourceLimits.maxOldGenerationSizeMb);
          finished(current, writeDocument(site, root, tasks[current], false));
        } catch (again) {
          return reject(again);
        }
        run().then(resolve, reject);
      });
      feed();
    });
  try {
    await Promise.all(Array.from({ length: workers }, run));
  } finally {
    await Promise.all([...live].map((w) => w.terminate()));
  }
  return results;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
