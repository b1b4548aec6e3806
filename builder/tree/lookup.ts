// From a request as a server receives it to the stored response that answers it, for readers
// without an event loop or caches of their own (nginx's JavaScript module, Apache's RewriteMap
// program): `readRequest`, `requestToPath`, then the folder's manifest and maybe one block,
// each read whole through `readText`. `dts serve`, the Worker and the edge function take the
// same steps with their caches (server/reader.ts). No classes, Map or Array.from: njs 0.7 runs it.

import { type DtsRequest, readRequest } from "../request.js";
import type { Site } from "../site.js";
import { MANIFEST, requestToPath } from "./layout.js";
import { entryIn, locate, type PackedEntries, type PackedEntry, parseManifest } from "./packed-folder.js";

export interface StoredLookup {
  request: DtsRequest;
  /** The folder of the response, and the entry saying where its body lies in that folder. */
  folder: string;
  entry: PackedEntry;
}

/** A tree file's text (a tree-relative path), or null when there is none. */
export type ReadText = (path: string) => string | null;

/**
 * The stored response for a GET of `pathname` and `search` (`?` optional), or null when the
 * tree holds none (a range, an unknown id, a bad request, a path outside the API): then only
 * `dts serve` can answer.
 */
export function lookupStored(pathname: string, search: string, site: Site, readText: ReadText): StoredLookup | null {
  const request = readRequest(pathname, search, site);
  if (request === null || request.kind === "bad") return null;
  const path = requestToPath(request);
  if (path === null) return null;
  const slash = path.lastIndexOf("/");
  const folder = slash < 0 ? "" : path.slice(0, slash);
  const name = path.slice(slash + 1);
  const inFolder = (file: string): string => (folder ? `${folder}/${file}` : file);
  const text = readText(inFolder(MANIFEST));
  const manifest = text === null ? null : parseManifest(text);
  const where = manifest === null ? null : locate(manifest, name);
  if (where === null) return null;
  if ("entry" in where) return { request, folder, entry: where.entry };
  const block = readText(inFolder(where.block));
  if (block === null) return null;
  let entries: PackedEntries;
  try {
    entries = JSON.parse(block) as PackedEntries;
  } catch {
    return null;
  }
  const entry = entryIn(entries, name);
  return entry === null ? null : { request, folder, entry };
}
