// The reader as a Cloudflare Worker, serving the tree from the Worker's static assets (the
// `ASSETS` binding, with `run_worker_first` so that every request comes here and the tree's
// files are reachable only through the reader). `dts build --target cloudflare` writes the
// wrangler configuration that bundles this module.

import type { Hono } from "hono";
import { openTree } from "../open-tree.js";
import { fetchStorage } from "./fetch-storage.js";
import { workerHandler } from "./worker-handler.js";

export interface WorkerEnv {
  ASSETS: { fetch(request: Request): Promise<Response> };
}

/** Builds the app once per isolate, after reading the settings the tree was built with. */
export async function workerApp(env: WorkerEnv): Promise<Hono> {
  // The host name is not used: the binding serves this Worker's assets whatever it is.
  return openTree(
    fetchStorage((path, headers) => env.ASSETS.fetch(new Request(`https://assets.invalid/${path}`, { headers }))),
    "the Worker's assets (assets.directory)",
  );
}

export default workerHandler(workerApp);
