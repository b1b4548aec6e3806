// The server's Hono app: the reader (GET, HEAD, OPTIONS on the tree), and, composed before
// it, the write API on the Document endpoint, the documentation of the write rules, and the
// per-document read locks that keep readers off a document while a write commits.

import type { Hono } from "hono";
import type { DocumentLocks } from "../builder/build/locks.js";
import { noEndpoint } from "../builder/render/messages.js";
import { jsonError } from "../builder/render/response.js";
import { renderDocs } from "../builder/render/service.js";
import { endpointOf } from "../builder/request.js";
import { docsUrl } from "../builder/urls.js";
import { CORS_HEADERS } from "../builder/wire.js";
import { pageRoutes } from "./page.js";
import { readerApp, type TreeReader } from "./reader.js";
import type { TreeStorage } from "./storage.js";
import { apiApp, toResponse } from "./to-response.js";
import { renderWritesPage, type WritesPageOptions, writesPagePath } from "./write/docs-page.js";
import type { WriteService } from "./write/service.js";

export interface AppOptions {
  reader: TreeReader;
  /** The write API (answers 403 with how to enable writes when they are not). */
  writes: WriteService;
  /** When a corpus is written to: GETs of a document wait while a write commits. */
  locks?: DocumentLocks;
  page: WritesPageOptions;
  /** Origins whose pages may write cross-origin. */
  origins?: string[];
  /** The tree's files, where the reader page served at `/` lies. */
  pageFiles?: TreeStorage;
}

export function createApp(options: AppOptions): Hono {
  const { reader, writes, locks } = options;
  const site = reader.site;
  const app = apiApp();

  if (locks) {
    app.use("*", async (c, next) => {
      if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
      const params = new URL(c.req.url).searchParams;
      const id = params.get("id") ?? params.get("resource");
      if (id === null) return next();
      await locks.read(id, () => next());
    });
  }

  // The API documentation lists the write operations when they are enabled.
  if (writes.enabled) {
    app.on(["GET", "HEAD"], docsUrl(site), (c) =>
      toResponse(renderDocs(site, writes.methods), {
        requestHeaders: c.req.raw.headers,
        context: { site, origin: new URL(c.req.url).origin },
      }),
    );
  }
  app.on(["GET", "HEAD"], writesPagePath(site), (_c) => {
    const html = renderWritesPage(site, options.page);
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", ...CORS_HEADERS } });
  });

  if (options.pageFiles) pageRoutes(app, options.pageFiles, site);

  app.on(["POST", "PUT", "DELETE"], "*", async (c, next) => {
    const endpoint = endpointOf(new URL(c.req.url).pathname, site);
    if (endpoint === "document") return writes.handle(c.req.raw, clientAddress(c.env));
    if (endpoint === null) {
      const url = new URL(c.req.url);
      return toResponse(jsonError(site, 404, noEndpoint(url.pathname, site)), {
        requestHeaders: c.req.raw.headers,
        context: { site, origin: url.origin },
      });
    }
    return next();
  });

  return readerApp(reader, app, { writes: writes.enabled, origins: options.origins ?? [] });
}

/** The peer's address on Node's server (behind a proxy, the proxy's). */
function clientAddress(env: unknown): string {
  return (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? "";
}
