// The reader as a Netlify Edge Function (Deno), serving the tree from the site's own
// deployed files. `dts build --target netlify` writes the function file that re-exports this
// handler with its route; the tree is the site's publish directory.

import type { Hono } from "hono";
import { openTree } from "../open-tree.js";
import { fetchStorage } from "./fetch-storage.js";

let origin = "";
let app: Promise<Hono> | null = null;

/**
 * The tree's files are fetched from the site itself (the CDN serves and caches them); the
 * function's route is the API's base path only, so these fetches do not come back here.
 */
const storage = fetchStorage((path, headers) => fetch(new URL(`/${path}`, origin), { headers }));

export default async function handler(request: Request): Promise<Response> {
  origin = new URL(request.url).origin;
  app ??= openTree(storage, "the site's publish directory").catch((e) => {
    app = null;
    throw e;
  });
  return (await app).fetch(request);
}
