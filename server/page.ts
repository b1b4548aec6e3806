// The reader page on `dts serve`: GET / and its two assets, read from the tree's root where
// the build wrote them, with the page's Content-Security-Policy. No other file of the tree's
// root is served (it holds the catalogue and manifests, which are not for clients).

import type { Hono } from "hono";
import { PAGE_CSP, PAGE_HTML, PAGE_SCRIPT, PAGE_STYLE } from "../builder/page/html.js";
import type { Site } from "../builder/site.js";
import { contentTag } from "./etag.js";
import type { TreeStorage } from "./storage.js";

const FILES: [route: string, file: string, type: string][] = [
  ["/", PAGE_HTML, "text/html; charset=utf-8"],
  [`/${PAGE_SCRIPT}`, PAGE_SCRIPT, "text/javascript; charset=utf-8"],
  [`/${PAGE_STYLE}`, PAGE_STYLE, "text/css; charset=utf-8"],
];

export function pageRoutes(app: Hono, storage: TreeStorage, site: Site): void {
  for (const [route, file, type] of FILES) {
    // With the API at the host's root, `/` is its entry point: the page gives way.
    if (route === "/" && site.basePath === "") continue;
    app.on(["GET", "HEAD"], route, async (c, next) => {
      const stored = await storage.read(file);
      if (!stored) return next();
      const etag = await contentTag(stored.body);
      const headers = new Headers({
        "Content-Type": type,
        ETag: etag,
        // A rebuild may replace the page: browsers revalidate, a 304 when it did not change.
        "Cache-Control": "no-cache",
        "Content-Security-Policy": `${PAGE_CSP}; frame-ancestors 'none'`,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
      });
      const match = c.req.header("If-None-Match");
      if (match?.split(",").some((t) => t.trim() === etag)) {
        headers.delete("Content-Type");
        return new Response(null, { status: 304, headers });
      }
      return new Response(stored.body as BodyInit, { headers });
    });
  }
}
