// Settings shared by the build and the server: where the API lives and how it answers.

export interface Site {
  /** Path prefix of every route, without a trailing slash ("" for the host root). */
  basePath: string;
  /** Members per Collection page. */
  pageSize: number;
  /**
   * The `@context` value of 1-draft2 JSON-LD responses: the tree's own context, absolute under
   * `siteUrl` or root-relative without it (`dts serve` then makes it absolute from each request,
   * as JSON-LD processors need); or the published draft-2 address when asked for.
   */
  context: string;
  /**
   * How stored responses lie in the tree's folders (tree/packed-folder.ts): "packed" (bodies
   * packed a few to a file: files grow with documents, not passages) or "files" (each body
   * alone in its file, for hosts that can only send whole files). Absent in trees built before
   * the choice existed: packed.
   */
  layout?: TreeLayout;
  /** The API versions the tree serves (absent in trees built before 1.0: 1-draft2 only). */
  apis?: ApiVersion[];
  /**
   * The public URL the tree is served at (scheme, host, and any path before `basePath`, no
   * trailing slash). DTS 1.0 templates and identifiers are absolute under it; without it they
   * are root-relative and `dts serve` makes them absolute from each request.
   */
  siteUrl?: string;
  /** DTS 1.0's Level 0 static profile: path-style templates, each URL a file (v1/static-paths.ts). */
  staticPaths?: boolean;
}

export const API_VERSIONS = ["1-draft2", "1.0"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Whether JSON-LD answers name their context root-relative: a server completes it per request. */
export const contextIsRelative = (site: Site): boolean => site.context.startsWith("/");

export const servesApi = (site: Site, api: ApiVersion): boolean => (site.apis ?? ["1-draft2"]).includes(api);

export const LAYOUTS = ["packed", "files"] as const;
export type TreeLayout = (typeof LAYOUTS)[number];

import { PUBLISHED_CONTEXT } from "./wire.js";

export interface SiteOptions {
  basePath?: string;
  pageSize?: number;
  /** Reference the published draft-2 context (not valid JSON) instead of the tree's own. */
  publishedContext?: boolean;
  layout?: TreeLayout;
  apis?: ApiVersion[];
  siteUrl?: string;
  staticPaths?: boolean;
}

export function makeSite(options: SiteOptions = {}): Site {
  const raw = options.basePath ?? "/api/dts";
  const basePath = raw === "/" ? "" : "/" + raw.replace(/^\/+|\/+$/g, "");
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`page size must be a positive integer, not ${pageSize}`);
  const siteUrl = options.siteUrl !== undefined ? checkSiteUrl(options.siteUrl) : undefined;
  return {
    basePath: basePath === "/" ? "" : basePath,
    pageSize,
    context: options.publishedContext ? PUBLISHED_CONTEXT : `${siteUrl ?? ""}${basePath}/context.json`,
    layout: options.layout ?? "packed",
    apis: options.apis ?? ["1-draft2"],
    ...(siteUrl !== undefined ? { siteUrl } : {}),
    ...(options.staticPaths ? { staticPaths: true } : {}),
  };
}

/** A site URL as the templates use it: http(s), no query or fragment, no trailing slash. */
export function checkSiteUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`the site URL must be an absolute http or https URL, such as https://example.org/edition, not "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`the site URL must be http or https, not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(`the site URL must have no query, fragment or credentials: "${value}"`);
  }
  return url.href.replace(/\/+$/, "");
}
