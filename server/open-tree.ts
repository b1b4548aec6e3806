// A runtime's reader of a tree it knows only through a storage (a Worker's assets, an edge
// function's site): the tree's own settings (`_site.json`, written by the build) say how to
// answer, so no runtime repeats reading them.

import type { Hono } from "hono";
import type { Site } from "../builder/site.js";
import { SITE_FILE } from "../builder/tree/layout.js";
import { pageRoutes } from "./page.js";
import { readerApp, TreeReader } from "./reader.js";
import type { TreeStorage } from "./storage.js";
import { apiApp } from "./to-response.js";

/** The read-only app over the tree in `storage`; `where` names the storage in the error when it holds no tree. */
export async function openTree(storage: TreeStorage, where: string): Promise<Hono> {
  const site = await storage.read(SITE_FILE);
  if (!site) throw new Error(`${where} holds no ${SITE_FILE}: serve a tree built by \`dts build\``);
  const settings = JSON.parse(new TextDecoder().decode(site.body)) as Site;
  // The reader page at `/`, where the runtime sees every request (the Worker does).
  const app = apiApp();
  pageRoutes(app, storage, settings);
  return readerApp(new TreeReader({ site: settings, storage }), app);
}
