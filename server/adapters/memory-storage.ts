// A tree held in memory (path -> bytes): for tests of the reader without a disk, and for
// runtimes that load a small tree whole. Supplies only what the other storages supply.

import { contentTag } from "../etag.js";
import { type Encoding, type PrecompressedStorage, SIBLING_SUFFIX } from "../precompressed.js";
import { outsideTree, type StoredFile } from "../storage.js";

export function memoryStorage(files: Map<string, Uint8Array>): PrecompressedStorage {
  const storage: PrecompressedStorage = {
    async read(path: string): Promise<StoredFile | null> {
      if (outsideTree(path)) return null;
      const body = files.get(path);
      return body === undefined ? null : { body, etag: await contentTag(body) };
    },
    async readRange(path: string, offset: number, length: number): Promise<Uint8Array | null> {
      const body = outsideTree(path) ? undefined : files.get(path);
      return body && body.length >= offset + length ? body.subarray(offset, offset + length) : null;
    },
    // Siblings are kept only with their file: one whose file is gone is not served.
    async readEncoded(path: string, encoding: Encoding): Promise<StoredFile | null> {
      if (!files.has(path)) return null;
      return storage.read(path + SIBLING_SUFFIX[encoding]);
    },
  };
  return storage;
}
