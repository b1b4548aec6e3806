// The reader as a Cloudflare Worker over a tree `dts deploy --to r2://bucket` put in an R2
// bucket (the `DTS_TREE` binding; `DTS_PREFIX`, a variable, when the deploy named one). For
// trees too large for a Worker's static assets; the reader is the same as `dts serve`'s.

import type { Hono } from "hono";
import { openTree } from "../open-tree.js";
import { bucketStorage, type GetObject } from "./bucket-storage.js";
import { workerHandler } from "./worker-handler.js";

/** What the Worker uses of an R2 bucket binding: a whole object, or a part of one. */
export interface R2Like {
  get(key: string, options?: { range?: { offset: number; length: number } }): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
}

export interface R2WorkerEnv {
  DTS_TREE: R2Like;
  /** The prefix the tree was deployed under (`r2://bucket/<prefix>`), if any. */
  DTS_PREFIX?: string;
}

/** Objects of the binding under the prefix. */
export function r2Objects(bucket: R2Like, prefix = ""): GetObject {
  const base = prefix.replace(/^\/+|\/+$/g, "");
  return async (key, range) => {
    const object = await bucket.get(base ? `${base}/${key}` : key, range ? { range } : undefined);
    return object ? new Uint8Array(await object.arrayBuffer()) : null;
  };
}

export function r2WorkerApp(env: R2WorkerEnv): Promise<Hono> {
  return openTree(bucketStorage(r2Objects(env.DTS_TREE, env.DTS_PREFIX), "the R2 bucket DTS_TREE"), "the R2 bucket DTS_TREE");
}

export default workerHandler(r2WorkerApp);
