// The one way a DtsResponse becomes a web Response, for every runtime and every route: its
// headers (Content-Type, Link, CORS, Location, caching), a 304 for a matching If-None-Match,
// and the route's own headers (Allow, Retry-After, Vary...), the JSON-LD context made absolute
// (context-origin.ts). And the one place HEAD loses its body.

import { Hono } from "hono";
import type { DtsResponse } from "../builder/render/response.js";
import type { Site } from "../builder/site.js";
import { CORS_HEADERS, STATIC_CACHE_CONTROL } from "../builder/wire.js";
import { withContextOrigin } from "./context-origin.js";

/** Cache-Control of what the tree does not hold (and of every answer without a tag). */
export const DYNAMIC_CACHE_CONTROL = "no-cache";

export interface ResponseOptions {
  /** The request's headers (If-None-Match). */
  requestHeaders: Headers;
  /** A strong tag: sent, and compared with If-None-Match. */
  etag?: string;
  /** With a tag: how long it may be cached (default: the tree's static policy). */
  cacheControl?: string;
  /** Headers of this answer besides the response's own. */
  headers?: Record<string, string>;
  /** The site and the origin the request came to, to complete a root-relative `@context`. */
  context?: { site: Site; origin: string };
}

export function toResponse(answer: DtsResponse, o: ResponseOptions): Response {
  const response = o.context ? withContextOrigin(answer, o.context.site, o.context.origin) : answer;
  const headers = new Headers({ "Content-Type": response.type, ...(response.link ? { Link: response.link } : {}), ...CORS_HEADERS });
  if (response.location) headers.set("Location", response.location);
  headers.set("Cache-Control", o.etag ? (o.cacheControl ?? STATIC_CACHE_CONTROL) : DYNAMIC_CACHE_CONTROL);
  if (o.etag) headers.set("ETag", o.etag);
  for (const [name, value] of Object.entries(o.headers ?? {})) headers.set(name, value);
  const match = o.etag ? o.requestHeaders.get("If-None-Match") : null;
  if (match?.split(",").some((t) => t.trim() === o.etag || t.trim() === "*")) {
    // No body: nothing describes one.
    headers.delete("Content-Type");
    headers.delete("Content-Encoding");
    return new Response(null, { status: 304, headers });
  }
  return new Response(response.body as BodyInit, { status: response.status, headers });
}

/** A Hono app whose answers to HEAD carry the GET's status and headers and no body. */
export function apiApp(): Hono {
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    if (c.req.method === "HEAD" && c.res.body) c.res = new Response(null, { status: c.res.status, headers: c.res.headers });
  });
  return app;
}
