// From a request as a server receives it to the stored response that answers it, for readers
// without an event loop or caches of their own (nginx's JavaScript module, Apache's RewriteMap
// program): `readRequest`, `requestToPath`, then the folder's manifest and maybe one block,
// each read whole through `readBytes`. `dts serve`, the Worker and the edge function take the
// same steps with their caches (server/reader.ts). Only the entry's line is parsed (see
// packed-folder.ts). No classes, Map or Array.from: njs 0.7 runs it.

import { type DtsRequest, readRequest } from "../request.js";
import type { Site } from "../site.js";
import { MANIFEST, requestToPath, splitTreePath, treePath } from "./layout.js";
import { findEntry, locate, manifestHead, type PackedEntry } from "./packed-folder.js";

export interface StoredLookup {
  request: DtsRequest;
  /** The folder of the response, and the entry saying where its body lies in that folder. */
  folder: string;
  entry: PackedEntry;
}

/** A tree file's bytes (a tree-relative path), or null when there is none. */
export type ReadBytes = (path: string) => Uint8Array | null;

/**
 * The stored response for a GET of `pathname` and `search` (`?` optional), or null when the
 * tree holds none (a range, an unknown id, a bad request, a path outside the API): then only
 * `dts serve` can answer.
 */
export function lookupStored(pathname: string, search: string, site: Site, readBytes: ReadBytes): StoredLookup | null {
  const request = readRequest(pathname, search, site);
  if (request === null || request.kind === "bad") return null;
  const path = requestToPath(request);
  if (path === null) return null;
  const { folder, name } = splitTreePath(path);
  const manifest = readBytes(treePath(folder, MANIFEST));
  const head = manifest === null ? null : manifestHead(manifest);
  if (manifest === null || head === null) return null;
  if (!head.blocks) {
    const entry = findEntry(manifest, name);
    return entry === null ? null : { request, folder, entry };
  }
  const where = locate({ v: 3, blocks: head.blocks }, name);
  const block = where && "block" in where ? readBytes(treePath(folder, where.block)) : null;
  const entry = block === null ? null : findEntry(block, name);
  return entry === null ? null : { request, folder, entry };
}
