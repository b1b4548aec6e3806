// The built tree as objects to deploy: which files go, under which key, with which headers,
// and each one's hashes. What goes is what a reader needs (the files a Worker's static assets
// get, isAsset: no host files, build records or precompressed siblings) less `_generation`,
// whose part the switch plays; or, with `staticOnly`, the DTS 1.0 static profile's files alone.

import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { isAsset } from "../builder/hosts/cloudflare.js";
import type { Site } from "../builder/site.js";
import { namedByContent, objectKey } from "../builder/tree/bucket-layout.js";
import { GENERATION_FILE, SITE_FILE } from "../builder/tree/layout.js";
import { JSONLD_EXT, TEI_EXT, v1BasePath } from "../builder/v1/urls.js";
import { cacheControl, contentType } from "./object-headers.js";
import { runPool } from "./pool.js";
import type { ObjectHeaders } from "./store.js";

export interface LocalObject {
  /** The tree-relative path. */
  path: string;
  /** The hash the listing holds for it ("" when it lies under its own path). */
  hash: string;
  /** Its key, relative to the deploy's prefix. */
  key: string;
  size: number;
  headers: ObjectHeaders;
}

/** Lengths of the hash that ends a key (hex digits of SHA-256): 80 bits keep versions apart. */
const KEY_HASH_DIGITS = 20;

/** True for a file of the static profile, served by its own path from a bucket website. */
export function isStaticProfile(site: Site, path: string): boolean {
  return (
    Boolean(site.staticPaths) && path.startsWith(`${v1BasePath(site).slice(1)}/`) && (path.endsWith(JSONLD_EXT) || path.endsWith(TEI_EXT))
  );
}

/** The tree's files (tree-relative paths), sorted. */
async function walk(root: string, folder = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(root, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await walk(root, path)));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

export async function readSite(dist: string): Promise<Site> {
  try {
    return JSON.parse(await readFile(join(dist, SITE_FILE), "utf8")) as Site;
  } catch {
    throw new Error(`${dist} is not a built tree (no readable ${SITE_FILE}); run \`dts build --out ${dist}\` first`);
  }
}

/** Every object of the tree to deploy, with its key and headers, hashing each file once. */
export async function localObjects(dist: string, site: Site, o: { staticOnly?: boolean } = {}): Promise<LocalObject[]> {
  const paths = (await walk(dist)).filter(
    (path) => path !== GENERATION_FILE && isAsset(path) && (!o.staticOnly || isStaticProfile(site, path)),
  );
  const out: LocalObject[] = new Array(paths.length);
  const indexes = paths.map((_, i) => i);
  await runPool(indexes, 8, async (i) => {
    const path = paths[i];
    const body = await readFile(join(dist, path));
    const md5 = createHash("md5").update(body).digest("hex");
    // A static profile's file is answered by its own path; packs and blocks are named by content.
    const plain = namedByContent(path) || isStaticProfile(site, path);
    const hash = plain ? "" : createHash("sha256").update(body).digest("hex").slice(0, KEY_HASH_DIGITS);
    const immutable = !isStaticProfile(site, path);
    out[i] = {
      path,
      hash,
      key: objectKey(path, hash),
      size: body.length,
      headers: { contentType: contentType(path), cacheControl: cacheControl(immutable), md5 },
    };
  });
  return out;
}

/** A file's bytes, read again at upload time (the tree is not held in memory). */
export function readLocal(dist: string, object: LocalObject): Promise<Uint8Array> {
  return readFile(join(dist, object.path));
}
