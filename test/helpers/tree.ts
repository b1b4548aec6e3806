// Builds a corpus into a temporary tree and serves it over real HTTP, for integration tests.

import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildReport, build } from "../../builder/build/build.js";
import { makeSite, type Site, type SiteOptions } from "../../builder/site.js";
import { readBody, readEntry, readFolder } from "../../builder/tree/folder-store.js";
import { type RunningServer, startServer } from "../../server/serve.js";

export const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const EMBEDDED = join(PROJECT, "corpus");
export const SHARED = resolve(PROJECT, "../shared/corpora");
export const HAS_SHARED = existsSync(SHARED);
/**
 * The public URL of trees that hosts serve in the comparisons: hosts that send stored files as
 * they are (nginx, Apache) need the context absolute in them, and every server then sends the
 * same bytes whatever port it listens on (`dts serve` completes a root-relative one per request).
 */
export const TEST_SITE_URL = "http://dts.test";
export const SHARED_SKIP = `../shared/corpora is absent: skipping tests on real corpora (expected at ${SHARED})`;

export interface ServedTree {
  dist: string;
  site: Site;
  report: BuildReport;
  server: RunningServer;
  /** GET (or another method) on a path relative to the host, e.g. `/api/dts/collection`. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function buildTree(corpus: string, options: SiteOptions = {}) {
  const dist = mkdtempSync(join(tmpdir(), "dts-test-"));
  const site = makeSite(options);
  const report = await build({ corpus, out: dist, site });
  return { dist, site, report };
}

export async function serveCorpus(corpus: string, options: { pageSize?: number; basePath?: string } = {}): Promise<ServedTree> {
  const { dist, site, report } = await buildTree(corpus, options);
  const server = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
  return {
    dist,
    site,
    report,
    server,
    fetch: (path, init) => fetch(server.url + path, init),
    close: async () => {
      await server.close();
      rmSync(dist, { recursive: true, force: true });
    },
  };
}

/** The Link header as a map of relation to target. */
export function links(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  const header = response.headers.get("link") ?? "";
  for (const m of header.matchAll(/<([^>]*)>;\s*rel="([^"]*)"/g)) out[m[2]] = m[1];
  return out;
}

export const API_DOC_REL = "http://www.w3.org/ns/hydra/core#apiDocumentation";

/**
 * Every file of a tree, by path relative to it, with the SHA-256 of its bytes and its
 * modification time; every folder too (as "folder", so an emptied or removed one shows).
 */
export function snapshotTree(root: string): Map<string, { hash: string; mtime: number }> {
  const out = new Map<string, { hash: string; mtime: number }>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const s = statSync(full);
      if (s.isDirectory()) {
        out.set(`${relative(root, full)}/`, { hash: "folder", mtime: 0 });
        walk(full);
      } else out.set(relative(root, full), { hash: createHash("sha256").update(readFileSync(full)).digest("hex"), mtime: s.mtimeMs });
    }
  };
  walk(root);
  return out;
}

/** Every file of a tree by its tree-relative path: a tree to hold in memory, or to serve as a static host would. */
export function treeFiles(root: string, folder = "", out = new Map<string, Uint8Array>()): Map<string, Uint8Array> {
  for (const name of readdirSync(join(root, folder))) {
    const path = folder ? `${folder}/${name}` : name;
    if (statSync(join(root, path)).isDirectory()) treeFiles(root, path, out);
    else out.set(path, readFileSync(join(root, path)));
  }
  return out;
}

/**
 * The responses a tree folder stores, whatever their packing: name -> status, type, Link and a
 * hash of the body. Two trees that answer the same hold the same, even when an incremental
 * rebuild packed them otherwise than a fresh build.
 */
export function storedResponses(root: string, folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, entry] of Object.entries(readFolder(root, folder)?.entries ?? {})) {
    const body = readBody(root, folder, entry);
    const hash = body ? createHash("sha1").update(body).digest("hex") : "missing";
    out.set(name, `${entry.status} ${entry.type} ${entry.link} ${entry.etag} ${hash}`);
  }
  return out;
}

/** Every response a tree stores, by its `requestToPath` path, as `storedResponses` describes it. */
export function allStoredResponses(root: string, folder = "", out = new Map<string, string>()): Map<string, string> {
  for (const [name, value] of storedResponses(root, folder)) out.set(folder ? `${folder}/${name}` : name, value);
  for (const e of readdirSync(join(root, folder), { withFileTypes: true })) {
    if (e.isDirectory()) allStoredResponses(root, folder ? `${folder}/${e.name}` : e.name, out);
  }
  return out;
}

/** The body of the response a tree stores at a `requestToPath` path, as text, or null. */
export function storedText(root: string, path: string): string | null {
  const slash = path.lastIndexOf("/");
  const folder = slash < 0 ? "" : path.slice(0, slash);
  const entry = readEntry(root, folder, path.slice(slash + 1));
  const body = entry && readBody(root, folder, entry);
  return body ? body.toString("utf8") : null;
}

/**
 * Copies the embedded corpus into `dir`, with the Georgics made larger than the size from which
 * a body lies alone in its file (a 40 kB comment in its header; no passage changes), so that its
 * whole document gets precompressed siblings in a packed tree.
 */
export function copyEmbeddedWithLargeGeorgics(dir: string): string {
  cpSync(EMBEDDED, dir, { recursive: true });
  const file = join(dir, "latin/virgil-georgics.xml");
  const padding = `<!-- ${"Vergilius, Georgica: a long comment, so the document is large. ".repeat(640)} -->`;
  writeFileSync(file, readFileSync(file, "utf8").replace("<teiHeader>", `<teiHeader>${padding}`));
  return dir;
}
