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

/** The encodings an Accept-Encoding header allows, best first (br, then gzip). */
export function acceptedEncodings(header: string | null): Encoding[] {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    q.set(name.trim(), weight ? Number(weight[1]) : 1);
  }
  const allowed = (e: string): boolean => (q.get(e) ?? q.get("*") ?? 0) > 0;
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
