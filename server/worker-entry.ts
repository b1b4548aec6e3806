// The reader as a Cloudflare Worker, serving the tree from the Worker's static assets (the
// `ASSETS` binding, with `run_worker_first` so that every request comes here and the tree's
// files are reachable only through the reader). `dts build --target cloudflare` writes the
// wrangler configuration that bundles this module.

import type { Hono } from "hono";
import { SITE_FILE } from "../builder/tree/layout.js";
import type { Site } from "../builder/site.js";
import { fetchStorage } from "./fetch-storage.js";
import { TreeReader, readerApp } from "./reader.js";

export interface WorkerEnv {
  ASSETS: { fetch(request: Request): Promise<Response> };
}

/** Builds the app once per isolate, after reading the settings the tree was built with. */
export async function workerApp(env: WorkerEnv): Promise<Hono> {
  // The host name is not used: the binding serves this Worker's assets whatever it is.
  const storage = fetchStorage((path) => env.ASSETS.fetch(new Request(`https://assets.invalid/${path}`)));
  const site = await storage.read(SITE_FILE);
  if (!site) throw new Error(`the assets hold no ${SITE_FILE}: point assets.directory at a tree built by \`dts build\``);
  const reader = new TreeReader({ site: JSON.parse(new TextDecoder().decode(site.body)) as Site, storage });
  return readerApp(reader);
}

let app: Promise<Hono> | null = null;

export default {
  async fetch(request: Request, env: WorkerEnv): Promise<Response> {
    app ??= workerApp(env).catch((e) => {
      app = null;
      throw e;
    });
    return (await app).fetch(request);
  },
};
