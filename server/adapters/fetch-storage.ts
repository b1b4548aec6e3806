// The tree behind an HTTP fetch: a Worker's static-assets binding, or an edge function's own
// site. Only "read this file" differs between runtimes; everything else is the reader's.

import { isPackingFile } from "../../builder/tree/packed-folder.js";
import { Lru } from "../lru.js";
import { outsideTree, type StoredFile, type TreeStorage } from "../storage.js";

/** Fetches a tree-relative path; a 404 means the file is not in the tree. */
export type FetchFile = (path: string, headers?: Headers) => Promise<Response>;

/** Whole pack files kept after a host ignored a Range request (Workers static assets do), by bytes. */
const WHOLE_PACKS_BYTES = 32 * 1024 * 1024;

export function fetchStorage(fetchFile: FetchFile): TreeStorage {
  // A pack is never rewritten (a new version of a folder gets new names), so a whole one read
  // once serves its other bodies too: on a host without Range, one read per pack, not per body.
  const wholePacks = new Lru<Uint8Array>(WHOLE_PACKS_BYTES, (_k, v) => v.length, WHOLE_PACKS_BYTES / 4);
  return {
    async read(path: string): Promise<StoredFile | null> {
      // Tree paths are `a-z 0-9 . _ - /` (encodeName), but a caller may pass anything: never climb.
      if (outsideTree(path)) return null;
      const response = await fetchFile(path);
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`reading ${path} from the tree: HTTP ${response.status}`);
      const body = new Uint8Array(await response.arrayBuffer());
      return { body, etag: response.headers.get("ETag") ?? undefined };
    },
    // One request for the part; a host that ignores Range sends the whole file, cut here.
    async readRange(path: string, offset: number, length: number): Promise<Uint8Array | null> {
      if (outsideTree(path)) return null;
      if (length === 0) return new Uint8Array(0);
      const kept = wholePacks.get(path);
      if (kept) return kept.length >= offset + length ? kept.subarray(offset, offset + length) : null;
      const response = await fetchFile(path, new Headers({ Range: `bytes=${offset}-${offset + length - 1}` }));
      if (response.status === 404 || response.status === 416) return null;
      if (!response.ok) throw new Error(`reading ${path} from the tree: HTTP ${response.status}`);
      const body = new Uint8Array(await response.arrayBuffer());
      if (response.status === 206) return body;
      const name = path.slice(path.lastIndexOf("/") + 1);
      if (isPackingFile(name)) wholePacks.set(path, body);
      return body.length >= offset + length ? body.subarray(offset, offset + length) : null;
    },
  };
}
