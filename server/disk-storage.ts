// The tree on the local disk, for `dts serve`.

import { readFile, stat } from "node:fs/promises";
import { resolve, sep } from "node:path";
import type { StoredFile, TreeStorage } from "./storage.js";

export function diskStorage(root: string): TreeStorage {
  const base = resolve(root);
  return {
    async read(path: string): Promise<StoredFile | null> {
      const full = resolve(base, path);
      // Paths come from requestToPath, which cannot climb; this keeps it true for any caller.
      if (!full.startsWith(base + sep)) return null;
      try {
        const [body, info] = await Promise.all([readFile(full), stat(full)]);
        return { body, etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"` };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return null;
        throw e;
      }
    },
  };
}
