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
  onProgress?: (done: number, total: number) => void;
}

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
  const pool = Array.from({ length: workers }, () => new Worker(WORKER_FILE, { workerData: { site, root } }));
  try {
    await Promise.all(
      pool.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = (): void => {
              if (next >= order.length) {
                resolve();
                return;
              }
              const seq = order[next++];
              worker.postMessage({ ...tasks[seq], seq });
            };
            worker.on("message", (m: { seq: number; result?: DocumentResult; packed?: PackedFiles; error?: string }) => {
              if (m.error !== undefined) return reject(new Error(`building ${tasks[m.seq].id}: ${m.error}`));
              // The worker renders its next document while this thread writes this one.
              feed();
              writePacked(root, m.packed!, sink);
              results[m.seq] = m.result!;
              options.onProgress?.(++done, tasks.length);
            });
            worker.on("error", reject);
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
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
