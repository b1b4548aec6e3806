// The tree on the local disk, for `dts serve`.

import { open, readFile, stat } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { fileTag } from "../etag.js";
import { type Encoding, type PrecompressedStorage, SIBLING_SUFFIX } from "../precompressed.js";
import { outsideTree, type StoredFile } from "../storage.js";

export function diskStorage(root: string): PrecompressedStorage {
  const base = resolve(root);
  const storage: PrecompressedStorage = {
    async read(path: string): Promise<StoredFile | null> {
      // Paths come from requestToPath, which cannot climb; this keeps it true for any caller.
      if (outsideTree(path)) return null;
      const full = resolve(base, path);
      if (!full.startsWith(base + sep)) return null;
      try {
        const [body, info] = await Promise.all([readFile(full), stat(full)]);
        // nginx's tag for the same file (see etag.ts): one tag whichever of the two served it.
        return { body, etag: fileTag(info.mtimeMs, info.size) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return null;
        throw e;
      }
    },
    async readRange(path: string, offset: number, length: number): Promise<Uint8Array | null> {
      if (outsideTree(path)) return null;
      const full = resolve(base, path);
      if (!full.startsWith(base + sep)) return null;
      const handle = await open(full, "r").catch(() => null);
      if (!handle) return null;
      try {
        const out = Buffer.alloc(length);
        const { bytesRead } = await handle.read(out, 0, length, offset);
        return bytesRead === length ? out : null;
      } finally {
        await handle.close();
      }
    },
    // A sibling the build did not write is one failed open: cheap on a local disk. One older
    // than its file (the file was rewritten since, by a write or an in-place build) is stale.
    async readEncoded(path: string, encoding: Encoding): Promise<StoredFile | null> {
      if (outsideTree(path)) return null;
      const sibling = resolve(base, path + SIBLING_SUFFIX[encoding]);
      if (!sibling.startsWith(base + sep)) return null;
      try {
        const [own, plain] = await Promise.all([stat(sibling), stat(resolve(base, path))]);
        if (own.mtimeMs < plain.mtimeMs) return null;
      } catch {
        return null;
      }
      return storage.read(path + SIBLING_SUFFIX[encoding]);
    },
  };
  return storage;
}
