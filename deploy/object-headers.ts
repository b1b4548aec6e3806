// The Content-Type and Cache-Control each object is stored with: what a bucket served as a
// website sends, and what a CDN in front of it keeps.

import { JSONLD_TYPE, STATIC_CACHE_CONTROL, TEI_TYPE } from "../builder/wire.js";

/** Objects whose key changes with their bytes: a CDN and a browser may keep them for ever. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** The switch: every reader asks again, so a new version is seen at once. */
export const SWITCH_CACHE_CONTROL = "no-cache";

const TYPES: Record<string, string> = {
  jsonld: JSONLD_TYPE,
  tei: TEI_TYPE,
  json: "application/json",
  xml: "application/xml",
  html: "text/html; charset=utf-8",
  txt: "text/plain; charset=utf-8",
};

/** The media type of a tree file by its extension; packs (`_p.<hash>`) are bytes. */
export function contentType(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return (dot > 0 && TYPES[name.slice(dot + 1)]) || "application/octet-stream";
}

/** Files served by their own path (the static profile) change in place: a short cache, as dts serve sends. */
export function cacheControl(immutable: boolean): string {
  return immutable ? IMMUTABLE : STATIC_CACHE_CONTROL;
}
