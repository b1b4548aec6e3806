// Addresses of the API, as they appear in JSON-LD bodies and Link headers. Every link the
// service emits is built here, so query values are encoded one way everywhere.

import { paramString, type UrlParams } from "./query.js";
import type { DtsRequest } from "./request.js";
import type { Site } from "./site.js";
import { v1Url } from "./v1/urls.js";
import { HYDRA_API_DOC } from "./wire.js";

/** Encodes a query value; `:` `/` `@` stay readable (they are legal in a query). */
export function encodeQueryValue(value: string): string {
  // Most values (URNs, references) need no escape: what encodeURIComponent keeps, and `:` `/` `@`.
  if (/^[A-Za-z0-9\-_.!~*'():/@]*$/.test(value)) return value;
  return encodeURIComponent(value).replace(/%3A/gi, ":").replace(/%2F/gi, "/").replace(/%40/gi, "@");
}

const query = (params: UrlParams): string => paramString(params, encodeQueryValue, "?", "&");

export const entryUrl = (site: Site): string => site.basePath || "/";
export const docsUrl = (site: Site): string => `${site.basePath}/docs`;
export const contextUrl = (site: Site): string => `${site.basePath}/context.json`;
export const collectionRoute = (site: Site): string => `${site.basePath}/collection`;
export const documentRoute = (site: Site): string => `${site.basePath}/document`;
export const navigationRoute = (site: Site): string => `${site.basePath}/navigation`;

export function collectionUrl(site: Site, id?: string, nav?: "parents", page?: number): string {
  return (
    collectionRoute(site) +
    query([
      ["id", id],
      ["nav", nav],
      ["page", page],
    ])
  );
}

export function documentUrl(site: Site, id: string, p: { ref?: string; start?: string; end?: string } = {}): string {
  return (
    documentRoute(site) +
    query([
      ["id", id],
      ["ref", p.ref],
      ["start", p.start],
      ["end", p.end],
    ])
  );
}

export function navigationUrl(
  site: Site,
  id: string,
  p: { ref?: string; start?: string; end?: string; down?: number | "max"; groupBy?: number; max?: number; page?: number } = {},
): string {
  return (
    navigationRoute(site) +
    query([
      ["id", id],
      ["ref", p.ref],
      ["start", p.start],
      ["end", p.end],
      ["down", p.down === 1 ? undefined : p.down],
      ["groupBy", p.groupBy],
      ["max", p.max],
      ["page", p.page],
    ])
  );
}

/** A URI template for the Document endpoint of one document (`{&ref}` etc.). */
export function passageTemplate(site: Site, id: string): string {
  return `${documentRoute(site)}${query([["id", id]])}{&ref}{&start}{&end}`;
}

export type LinkRel = "prev" | "next" | "up" | "first" | "last" | "contents" | "collection";

/** The Link header value: the API documentation first, then the given relations. */
export function linkHeader(site: Site, links: [LinkRel, string][] = []): string {
  return [`<${docsUrl(site)}>; rel="${HYDRA_API_DOC}"`, ...links.map(([rel, url]) => `<${url}>; rel="${rel}"`)].join(", ");
}

/** The canonical URL of a request (the inverse of parseRequest for the canonical form). */
export function requestUrl(site: Site, req: DtsRequest): string {
  switch (req.kind) {
    case "entry":
      return entryUrl(site);
    case "docs":
      return docsUrl(site);
    case "context":
      return contextUrl(site);
    case "collection":
      return collectionUrl(site, req.id, req.nav === "parents" ? "parents" : undefined, req.page);
    case "document":
      return (
        documentRoute(site) +
        query([
          ["id", req.id],
          ["ref", req.ref],
          ["start", req.start],
          ["end", req.end],
          ["format", req.format],
        ])
      );
    case "navigation":
      return navigationUrl(site, req.id, req);
    default:
      return v1Url(site, req);
  }
}
