// Writes many documents, on worker threads when there is more than one core. Each document
// owns its folders and its output does not depend on the others, so the tree is the same
// whatever the number of workers.

import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type DocumentResult, type DocumentTask, writeDocument } from "./document-output.js";
import type { Site } from "./site.js";

export interface PoolOptions {
  inPlace: boolean;
  /**
   * Worker threads; 1 writes on this thread (the default). Measured on latinLit on a 2-core
   * ext4 VM: 2 workers took 63 s against 48 s for 1, the kernel's time for creating files
   * tripling (18 s to 55 s) when two threads create them at once.
   */
  workers?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Workers run compiled JavaScript; from TypeScript sources (the test runner) work stays on this thread. */
const WORKER_FILE = import.meta.url.endsWith(".js") ? fileURLToPath(new URL("./build-worker.js", import.meta.url)) : null;

export async function writeDocuments(site: Site, root: string, tasks: DocumentTask[], options: PoolOptions): Promise<DocumentResult[]> {
  const workers = Math.min(options.workers ?? 1, availableParallelism(), tasks.length);
  const results: DocumentResult[] = new Array(tasks.length);
  if (workers <= 1 || WORKER_FILE === null) {
    tasks.forEach((task, i) => {
      results[i] = writeDocument(site, root, task, options.inPlace);
      options.onProgress?.(i + 1, tasks.length);
    });
    return results;
  }
  // Largest first, so no worker is left with a big document at the end.
  const order = tasks.map((_, i) => i).sort((a, b) => sizeOf(tasks[b].file) - sizeOf(tasks[a].file) || a - b);
  let next = 0;
  let done = 0;
  const pool = Array.from({ length: workers }, () => new Worker(WORKER_FILE, { workerData: { site, root, inPlace: options.inPlace } }));
  try {
    await Promise.all(
      pool.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = (): void => {
              if (next >= order.length) return resolve();
              const seq = order[next++];
              worker.postMessage({ ...tasks[seq], seq });
            };
            worker.on("message", (m: { seq: number; result?: DocumentResult; error?: string }) => {
              if (m.error !== undefined) return reject(new Error(`building ${tasks[m.seq].id}: ${m.error}`));
              results[m.seq] = m.result!;
              options.onProgress?.(++done, tasks.length);
              feed();
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
