// Writes many documents. A full build renders and writes them on worker threads, one per core.
// Each document's output does not depend on the others, so the tree is the same whatever the
// number of workers.

import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Site } from "../site.js";
import { type DocumentResult, type DocumentTask, writeDocument } from "./document-output.js";
import { RenderQueue } from "./render-queue.js";

export interface PoolOptions {
  inPlace: boolean;
  /**
   * Render workers for a full build (default: one per core); 0 renders on this thread. Each
   * writes its documents' files: packed, a document is a few files, and on a 2-core VM two
   * workers writing built latinLit in 18 s against 32 s for one worker handing its files to
   * this thread (which was two thirds idle). An in-place build (incremental) renders on this
   * thread.
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
/**
 * The young generation of each render worker. V8's default (3 x 16 MB on 64-bit) fills with the
 * garbage of rendering: on latinLit with two workers, 16 MB took the build's peak from 365 to
 * 310 MB for some 10 % more CPU in collections (three alternating runs each).
 */
const WORKER_YOUNG_MB = 16;

/** Workers run compiled JavaScript; from TypeScript sources (the test runner) work stays on this thread. */
const WORKER_FILE = import.meta.url.endsWith(".js") ? fileURLToPath(new URL("./build-worker.js", import.meta.url)) : null;

export async function writeDocuments(site: Site, root: string, tasks: DocumentTask[], options: PoolOptions): Promise<DocumentResult[]> {
  const workers = Math.min(options.workers ?? availableParallelism(), tasks.length);
  const results: DocumentResult[] = new Array(tasks.length);
  if (workers < 1 || options.inPlace || WORKER_FILE === null) {
    tasks.forEach((task, i) => {
      results[i] = writeDocument(site, root, task, options.inPlace);
      options.onProgress?.(i + 1, tasks.length);
    });
    return results;
  }
  const queue = new RenderQueue(tasks.map((t) => sizeOf(t.file)));
  /** Workers waiting for a document that fits beside those rendering. */
  const parked: (() => void)[] = [];
  let done = 0;
  const resourceLimits = { maxOldGenerationSizeMb: options.workerHeapMb ?? WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB };
  const spawn = (): Worker => new Worker(WORKER_FILE, { workerData: { site, root }, resourceLimits });
  const live = new Set<Worker>();
  const finished = (seq: number, result: DocumentResult): void => {
    results[seq] = result;
    options.onProgress?.(++done, tasks.length);
    queue.done(seq);
    for (const feed of parked.splice(0)) feed();
  };
  /** One worker's loop: a document at a time; when the worker runs out of heap, its document is rendered here and a new worker goes on. */
  const run = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const worker = spawn();
      live.add(worker);
      let current = -1;
      const feed = (): void => {
        current = -1;
        if (queue.empty) {
          resolve();
          return;
        }
        const task = queue.take();
        if (task === undefined) {
          parked.push(feed);
          return;
        }
        current = task;
        worker.postMessage({ ...tasks[task], seq: task });
      };
      worker.on("message", (m: { seq: number; result?: DocumentResult; error?: string }) => {
        if (m.error !== undefined) return reject(new Error(`building ${tasks[m.seq].id}: ${m.error}`));
        finished(m.seq, m.result!);
        feed();
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
