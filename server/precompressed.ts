// Precompressed siblings (`x.json.br`, `x.json.gz`, written by `dts build --compress`): a
// storage that can read them lets the reader send the compressed bytes as they are, with
// Content-Encoding and Vary, when the client accepts that encoding.

import { type Encoding, SIBLING_SUFFIX } from "../builder/tree/layout.js";
import type { StoredFile, TreeStorage } from "./storage.js";

export { type Encoding, SIBLING_SUFFIX };

export interface PrecompressedStorage extends TreeStorage {
  /** The sibling of `path` in `encoding`, or null when the build wrote none. */
  readEncoded(path: string, encoding: Encoding): Promise<StoredFile | null>;
}

export function hasPrecompressed(storage: TreeStorage): storage is PrecompressedStorage {
  return typeof (storage as Partial<PrecompressedStorage>).readEncoded === "function";
}

/** The encodings an Accept-Encoding header allows, best first (br, then gzip). No Map: nginx's njs runs this too. */
export function acceptedEncodings(header: string | null): Encoding[] {
  if (!header) return [];
  const q: Record<string, number> = Object.create(null);
  const parts = header.split(",");
  for (let i = 0; i < parts.length; i++) {
    const params = parts[i].trim().toLowerCase().split(";");
    let weight = 1;
    for (let j = 1; j < params.length; j++) {
      const m = /^\s*q=([0-9.]+)\s*$/.exec(params[j]);
      if (m) {
        weight = Number(m[1]);
        break;
      }
    }
    q[params[0].trim()] = weight;
  }
  const allowed = (e: string): boolean => (e in q ? q[e] : "*" in q ? q["*"] : 0) > 0;
  return (["br", "gzip"] as const).filter(allowed);
}

/** The best sibling the client accepts, or null (then the plain file is sent). */
export async function readPrecompressed(
  storage: PrecompressedStorage,
  path: string,
  acceptEncoding: string | null,
): Promise<{ file: StoredFile; encoding: Encoding } | null> {
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    const file = await storage.readEncoded(path, encoding);
    if (file) return { file, encoding };
  }
  return null;
}
