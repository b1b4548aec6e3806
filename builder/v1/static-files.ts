// The static profile's files on disk, for an incremental build to remove those no response
// names any more: a document's (ref gone, tree gone), the collections', a removed document's.

import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Site } from "../site.js";
import { JSONLD_EXT, TEI_EXT, v1BasePath } from "./urls.js";

const KINDS = [
  ["document", TEI_EXT],
  ["navigation", JSONLD_EXT],
] as const;

/** Tree-relative paths of every file under `rel` (a file or a folder). */
function filesUnder(root: string, rel: string, out: string[] = []): string[] {
  const stat = statSync(join(root, rel), { throwIfNoEntry: false });
  if (!stat) return out;
  if (!stat.isDirectory()) out.push(rel);
  else for (const name of readdirSync(join(root, rel))) filesUnder(root, `${rel}/${name}`, out);
  return out;
}

function list(root: string, rel: string): string[] {
  try {
    return readdirSync(join(root, rel));
  } catch {
    return [];
  }
}

/** Whether a folder entry belongs to the identifier (last segment) `name`: `name.ext`, `name`, `name;...`. */
const belongs = (entry: string, name: string, ext: string): boolean =>
  entry === name || entry === name + ext || entry.startsWith(`${name};`);

/** The static files of one document (none when the tree is not of the static profile). */
export function staticFilesOf(root: string, site: Site, id: string): string[] {
  if (!site.staticPaths) return [];
  const segments = id.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) return [];
  const name = segments.pop()!;
  const out: string[] = [];
  for (const [kind, ext] of KINDS) {
    const folder = [v1BasePath(site).slice(1), kind, ...segments].join("/");
    for (const entry of list(root, folder)) if (belongs(entry, name, ext)) filesUnder(root, `${folder}/${entry}`, out);
  }
  return out;
}

/** Every static file of the Collection endpoint. */
export function staticCollectionFiles(root: string, site: Site): string[] {
  if (!site.staticPaths) return [];
  const base = v1BasePath(site).slice(1);
  const out: string[] = [];
  for (const entry of list(root, base)) if (belongs(entry, "collection", JSONLD_EXT)) filesUnder(root, `${base}/${entry}`, out);
  return out;
}

/**
 * Removes the static files of documents the corpus no longer lists. An identifier with `/`
 * lies in folders named by its first segment, kept while any document's id starts with it.
 */
export function removeStaticDocumentsNotIn(root: string, site: Site, ids: Set<string>): void {
  if (!site.staticPaths) return;
  const firsts = new Set([...ids].map((id) => id.split("/")[0]));
  for (const [kind, ext] of KINDS) {
    const folder = `${v1BasePath(site).slice(1)}/${kind}`;
    for (const entry of list(root, folder)) {
      const cut = entry.indexOf(";");
      let name = cut < 0 ? entry : entry.slice(0, cut);
      if (cut < 0 && name.endsWith(ext)) name = name.slice(0, -ext.length);
      if (!firsts.has(name)) rmSync(join(root, folder, entry), { recursive: true, force: true });
    }
  }
}

/** Files and bytes of a whole tree: what a file server rooted at it (GitHub Pages) is handed. */
export function treeSize(root: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        files++;
        bytes += statSync(path).size;
      }
    }
  };
  walk(root);
  return { files, bytes };
}
