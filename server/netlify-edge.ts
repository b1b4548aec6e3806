// The reader as a Netlify Edge Function (Deno), serving the tree from the site's own
// deployed files. `dts build --target netlify` writes the function file that re-exports this
// handler with its route; the tree is the site's publish directory.

import type { Hono } from "hono";
import { SITE_FILE } from "../builder/tree/layout.js";
import type { Site } from "../builder/site.js";
import { fetchStorage } from "./fetch-storage.js";
import { TreeReader, readerApp } from "./reader.js";

let origin = "";
let app: Promise<Hono> | null = null;

/**
 * The tree's files are fetched from the site itself (the CDN serves and caches them); the
 * function's route is the API's base path only, so these fetches do not come back here.
 */
const storage = fetchStorage((path) => fetch(new URL(`/${path}`, origin)));

async function edgeApp(): Promise<Hono> {
  const site = await storage.read(SITE_FILE);
  if (!site) throw new Error(`the site holds no ${SITE_FILE}: publish a tree built by \`dts build\``);
  return readerApp(new TreeReader({ site: JSON.parse(new TextDecoder().decode(site.body)) as Site, storage }));
}

export default async function handler(request: Request): Promise<Response> {
  origin = new URL(request.url).origin;
  app ??= edgeApp().catch((e) => {
    app = null;
    throw e;
  });
  return (await app).fetch(request);
}
