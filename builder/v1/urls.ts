// Addresses of the DTS 1.0 API: its base, the URI templates of the Entry and of each Resource,
// and the URL of each request, in one of two styles. Query style (`collection?id=...`) for
// servers; path style (`collection/<id>;nav=parents.jsonld`), the Level 0 static profile,
// where every URL is a file a plain file server answers (static-paths.ts names the files).

import { paramString, type UrlParams } from "../query.js";
import type { Site } from "../site.js";
import type { V1Request } from "./request.js";

/** The 1.0 API's path under the site's base path. */
export const V1_SEGMENT = "/v1";

/** The path of the 1.0 API on its server, without a trailing slash. */
export const v1BasePath = (site: Site): string => `${site.basePath}${V1_SEGMENT}`;

/** The 1.0 API's base as it appears in bodies: absolute when the site URL is known. */
export const v1Base = (site: Site): string => `${site.siteUrl ?? ""}${v1BasePath(site)}`;

/** File extensions of the static profile: what a file server's types map to the media types. */
export const JSONLD_EXT = ".jsonld";
export const TEI_EXT = ".tei";

/**
 * A value as RFC 6570 simple expansion writes it (`{var}`, `{/var}`, `{;var}`): everything but
 * the unreserved characters percent-encoded as UTF-8, so a literal in a template and a value a
 * client expands are spelt alike.
 */
export function encodeStrict(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A query value as a client's form-style expansion (`{?var}`, `{&var}`) writes it. */
const q = encodeStrict;

const queryString = (params: UrlParams): string => paramString(params, encodeStrict, "?", "&");

/** `;name=value` for each given parameter (RFC 6570 `{;a,b}`). */
const matrix = (params: UrlParams): string => paramString(params, encodeStrict, ";", ";");

export interface V1Templates {
  collection: string;
  navigation: string;
  document: string;
}

/** The Entry's templates: every parameter of each endpoint. */
export function entryTemplates(site: Site): V1Templates {
  const base = v1Base(site);
  if (site.staticPaths) {
    return {
      collection: `${base}/collection{/id}{;nav,page}${JSONLD_EXT}`,
      navigation: `${base}/navigation/{resource}{;tree,down}{/ref,start,end}${JSONLD_EXT}`,
      document: `${base}/document/{resource}{;tree}{/ref,start,end}${TEI_EXT}`,
    };
  }
  return {
    collection: `${base}/collection{?id,page,nav}`,
    navigation: `${base}/navigation{?resource,ref,start,end,down,tree,page}`,
    document: `${base}/document{?resource,ref,start,end,tree,mediaType}`,
  };
}

/** The templates of one node, its id written in: `collection` for all, the others for Resources. */
export function nodeTemplates(site: Site, id: string): V1Templates {
  const base = v1Base(site);
  const enc = encodeStrict(id);
  if (site.staticPaths) {
    return {
      collection: `${base}/collection/${enc}{;nav,page}${JSONLD_EXT}`,
      navigation: `${base}/navigation/${enc}{;tree,down}{/ref,start,end}${JSONLD_EXT}`,
      document: `${base}/document/${enc}{;tree}{/ref,start,end}${TEI_EXT}`,
    };
  }
  return {
    collection: `${base}/collection?id=${q(id)}{&page,nav}`,
    navigation: `${base}/navigation?resource=${q(id)}{&ref,start,end,down,tree,page}`,
    document: `${base}/document?resource=${q(id)}{&ref,start,end,tree,mediaType}`,
  };
}

/** The URL of a request, as the templates expand to it (canonical parameter order). */
export function v1Url(site: Site, req: V1Request): string {
  const base = v1Base(site);
  if (site.staticPaths) {
    switch (req.kind) {
      case "v1-entry":
        return `${base}/index${JSONLD_EXT}`;
      case "v1-collection": {
        const params = matrix([
          ["nav", req.nav === "parents" ? "parents" : undefined],
          ["page", req.page],
        ]);
        return `${base}/collection${req.id === undefined ? "" : `/${encodeStrict(req.id)}`}${params}${JSONLD_EXT}`;
      }
      case "v1-document":
        return `${base}/document/${encodeStrict(req.resource)}${matrix([["tree", req.tree]])}${passagePath(req)}${TEI_EXT}`;
      case "v1-navigation":
        return (
          `${base}/navigation/${encodeStrict(req.resource)}` +
          matrix([
            ["tree", req.tree],
            ["down", req.down],
          ]) +
          passagePath(req) +
          JSONLD_EXT
        );
    }
  }
  switch (req.kind) {
    case "v1-entry":
      return `${base}/`;
    case "v1-collection":
      return (
        `${base}/collection` +
        queryString([
          ["id", req.id],
          ["page", req.page],
          ["nav", req.nav === "parents" ? "parents" : undefined],
        ])
      );
    case "v1-document":
      return (
        `${base}/document` +
        queryString([
          ["resource", req.resource],
          ["ref", req.ref],
          ["start", req.start],
          ["end", req.end],
          ["tree", req.tree],
          ["mediaType", req.mediaType],
        ])
      );
    case "v1-navigation":
      return (
        `${base}/navigation` +
        queryString([
          ["resource", req.resource],
          ["ref", req.ref],
          ["start", req.start],
          ["end", req.end],
          ["down", req.down],
          ["tree", req.tree],
          ["page", req.page],
        ])
      );
  }
}

/** `{/ref,start,end}` expanded: one segment for a passage, two for a range. */
function passagePath(p: { ref?: string; start?: string; end?: string }): string {
  return [p.ref, p.start, p.end]
    .filter((v): v is string => v !== undefined)
    .map((v) => `/${encodeStrict(v)}`)
    .join("");
}
