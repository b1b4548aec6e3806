// Where each response and data file lives in the tree: \`requestToPath\` (the one request-to-file
// function, used by the build, every reader and the host rules), the folders of a document, and
// the names of the tree's own files.

import type { DtsRequest } from "../request.js";
import { isStoredV1 } from "../v1/request.js";

/**
 * Encodes a value into a file-name-safe form: `a-z 0-9 . -` stay, everything else is `_hh`
 * per UTF-8 byte (so names are the same on case-insensitive disks), a leading `.` too
 * (no `.` or `..` names). Long names are cut and end with a hash, to stay under 255 bytes.
 */
const utf8 = new TextEncoder();

export function encodeName(value: string): string {
  let out = "";
  const bytes = utf8.encode(value);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    const safe = (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2d || (b === 0x2e && i > 0);
    out += safe ? String.fromCharCode(b) : "_" + b.toString(16).padStart(2, "0");
  }
  if (out.length > 180) out = out.slice(0, 150) + "_z" + fnv1a64(value);
  return out;
}

/**
 * A 64-bit FNV-1a hash in hex: enough to keep shortened names apart, and runs anywhere (in four
 * 16-bit limbs, since nginx's JavaScript module has no BigInt).
 */
export function fnv1a64(text: string): string {
  // The offset basis 0xcbf29ce484222325, least significant limb first.
  const h = [0x2325, 0x8422, 0x9ce4, 0xcbf2];
  const bytes = utf8.encode(text);
  for (let i = 0; i < bytes.length; i++) {
    h[0] ^= bytes[i];
    // h * 0x100000001b3 mod 2^64: h * 0x1b3, plus h shifted left by 40 bits (0x100 in the third limb).
    const r0 = h[0] * 0x1b3;
    const r1 = h[1] * 0x1b3 + (r0 >>> 16);
    const r2 = h[2] * 0x1b3 + h[0] * 0x100 + (r1 >>> 16);
    const r3 = h[3] * 0x1b3 + h[1] * 0x100 + (r2 >>> 16);
    h[0] = r0 & 0xffff;
    h[1] = r1 & 0xffff;
    h[2] = r2 & 0xffff;
    h[3] = r3 & 0xffff;
  }
  let out = "";
  for (let i = 3; i >= 0; i--) out += h[i].toString(16).padStart(4, "0");
  return out;
}

/** The folder of a document's files in the tree (document and navigation share the id part). */
export function documentFolder(id: string): string {
  return `document/${encodeName(id)}`;
}

/** The folder of a document's navigation responses. */
export function navigationFolder(id: string): string {
  return `navigation/${encodeName(id)}`;
}

/**
 * The file that holds the response to a request, relative to the tree, or null when the
 * response is not stored (ranges, and navigation with groupBy, max or down=0). DTS 1.0
 * answers lie under `v1/`, except in the static profile (v1/static-paths.ts).
 */
export function requestToPath(req: DtsRequest): string | null {
  switch (req.kind) {
    case "entry":
      return "index.json";
    case "docs":
      return "docs.json";
    case "context":
      return "context.json";
    case "collection":
      return `collection/${req.id === undefined ? "_" : encodeName(req.id)}/${req.nav}${req.page ? `.p${req.page}` : ""}.json`;
    case "document":
      if (req.start !== undefined || req.end !== undefined || req.format !== undefined) return null;
      return `${documentFolder(req.id)}/${req.ref === undefined ? WHOLE_DOCUMENT : `r.${encodeName(req.ref)}.xml`}`;
    case "navigation":
      if (req.start !== undefined || req.groupBy !== undefined || req.max !== undefined || req.down === 0) return null;
      return `${navigationFolder(req.id)}/${req.ref === undefined ? "_" : `r.${encodeName(req.ref)}`}.d${req.down}.json`;
    case "v1-entry":
      return "v1/index.json";
    case "v1-collection":
      return `v1/collection/${req.id === undefined ? "_" : encodeName(req.id)}/${req.nav}${req.page ? `.p${req.page}` : ""}.json`;
    case "v1-document":
      if (!isStoredV1(req)) return null;
      return `v1/${documentFolder(req.resource)}/${treePrefix(req.tree)}${req.ref === undefined ? "_" : `r.${encodeName(req.ref)}`}.xml`;
    case "v1-navigation":
      if (!isStoredV1(req)) return null;
      return `v1/${navigationFolder(req.resource)}/${treePrefix(req.tree)}${req.ref === undefined ? "_" : `r.${encodeName(req.ref)}`}.d${req.down ?? "n"}.json`;
  }
}

/** The name prefix of a response of a named citation tree. */
const treePrefix = (tree: string | undefined): string => (tree === undefined ? "" : `t.${encodeName(tree)}.`);

/** A file of a tree folder ("" is the root): the inverse of splitTreePath. */
export function treePath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** A tree path's folder ("" at the root) and file name: a folder's manifest names its files. */
export function splitTreePath(path: string): { folder: string; name: string } {
  const slash = path.lastIndexOf("/");
  return { folder: slash < 0 ? "" : path.slice(0, slash), name: path.slice(slash + 1) };
}

/** The whole document's response in its folder: its source, from which ranges are cut. */
export const WHOLE_DOCUMENT = "_.xml";

/** Per-folder manifest of statuses and headers. */
export const MANIFEST = "_manifest.json";
/** A document's citation index, beside its responses. */
export const INDEX_FILE = "_index.json";
/** The catalogue the server renders dynamic Collection answers from. */
export const CATALOG_FILE = "_catalog.json";
/**
 * Changes whenever the tree does (a build or a rebuild that wrote anything), so that a
 * server reading the tree can tell its caches are stale.
 */
export const GENERATION_FILE = "_generation";

/** The settings the tree was built with (base path, page size, context). */
export const SITE_FILE = "_site.json";

/** Encodings of the precompressed siblings `dts build --compress` writes. */
export type Encoding = "br" | "gzip";

/** The file name suffix of each encoding's sibling. */
export const SIBLING_SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };
