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

/** What an answer is on the wire: its status, headers (names as written, each once) and body. */
export interface AnswerParts {
  status: number;
  headers: [string, string][];
  body: Uint8Array | string | null;
}

/**
 * The one place an answer's status and headers are decided, for the web Response below and for
 * the Node fast path (fast-path.ts). `ifNoneMatch` is the request's If-None-Match.
 */
export function answerParts(
  answer: DtsResponse,
  o: Omit<ResponseOptions, "requestHeaders"> & { ifNoneMatch?: string | null },
): AnswerParts {
  const response = o.context ? withContextOrigin(answer, o.context.site, o.context.origin) : answer;
  // Keyed by lowercase name: a later value replaces an earlier one, as Headers.set does.
  const headers = new Map<string, [string, string]>();
  const set = (name: string, value: string): void => {
    headers.set(name.toLowerCase(), [name, value]);
  };
  set("Content-Type", response.type);
  if (response.link) set("Link", response.link);
  for (const [name, value] of Object.entries(CORS_HEADERS)) set(name, value);
  if (response.location) set("Location", response.location);
  set("Cache-Control", o.etag ? (o.cacheControl ?? STATIC_CACHE_CONTROL) : DYNAMIC_CACHE_CONTROL);
  if (o.etag) set("ETag", o.etag);
  for (const [name, value] of Object.entries(o.headers ?? {})) set(name, value);
  const match = o.etag ? o.ifNoneMatch : null;
  if (match?.split(",").some((t) => t.trim() === o.etag || t.trim() === "*")) {
    // No body: nothing describes one.
    headers.delete("content-type");
    headers.delete("content-encoding");
    return { status: 304, headers: [...headers.values()], body: null };
  }
  return { status: response.status, headers: [...headers.values()], body: response.body };
}

export function toResponse(answer: DtsResponse, o: ResponseOptions): Response {
  const parts = answerParts(answer, { ...o, ifNoneMatch: o.requestHeaders.get("If-None-Match") });
  return new Response(parts.body as BodyInit | null, { status: parts.status, headers: parts.headers });
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
