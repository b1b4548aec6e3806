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

/**
 * The encodings an Accept-Encoding header allows, best first (br, then gzip). Only the three
 * names that matter are kept: a header's other tokens are never made keys (V8 interns property
 * names, and a client can send a new 8 kB token with every request). No Map: njs runs this too.
 */
export function acceptedEncodings(header: string | null): Encoding[] {
  if (!header) return [];
  const weights: { br?: number; gzip?: number; any?: number } = {};
  const parts = header.split(",");
  for (let i = 0; i < parts.length; i++) {
    const params = parts[i].trim().toLowerCase().split(";");
    const name = params[0].trim();
    if (name !== "br" && name !== "gzip" && name !== "*") continue;
    let weight = 1;
    for (let j = 1; j < params.length; j++) {
      const m = /^\s*q=([0-9.]+)\s*$/.exec(params[j]);
      if (m) {
        weight = Number(m[1]);
        break;
      }
    }
    weights[name === "*" ? "any" : name] = weight;
  }
  const allowed = (e: Encoding): boolean => (weights[e] ?? weights.any ?? 0) > 0;
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
