// The build: corpus -> catalogue and citation indexes -> every stored response in `out`.
// A first build (or one with other settings) writes a new tree beside `out` and swaps it in
// at the end; a build over a tree of the same settings updates it in place, rewriting only
// the documents whose source changed, each file atomically. Either way a server reading
// `out` never sees a half-built response.

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fillFromHeader, type Library, type ResourceNode, type TextSummary, type Warning } from "../catalog.js";
import { HOST_OPTIONS_FILE, type HostOptions, type HostReport, writeHostFiles } from "../hosts/host-files.js";
import { checkLimit, LIMITS } from "../hosts/limits.js";
import { writePageFiles } from "../page/files.js";
import { listOr, readTextOr } from "../read-files.js";
import type { DocumentMethod } from "../render/service.js";
import { collectionResponses, serviceResponses } from "../responses.js";
import { type Site, servesApi } from "../site.js";
import { CATALOG_FILE, encodeName, SITE_FILE } from "../tree/layout.js";
import { libraryToJson } from "../tree/stored-data.js";
import { checkTreeFolder, makeStaging, swapInto, TREE_RECORD } from "../tree/tree-folder.js";
import { bumpGeneration, TreeWriter } from "../tree/tree-writer.js";
import { entryUrl } from "../urls.js";
import { removeStaticDocumentsNotIn, staticCollectionFiles, treeSize } from "../v1/static-files.js";
import { v1Url } from "../v1/urls.js";
import { loadDocumentsApart } from "./catalogue-thread.js";
import { type DocumentResult, documentTask, OUTPUT_VERSION } from "./document-output.js";
import { writeDocuments } from "./document-pool.js";
import type { PlanReason } from "./plan.js";

export interface BuildOptions {
  corpus: string;
  out: string;
  site: Site;
  methods?: DocumentMethod[];
  /** Threads rendering and writing documents (default: one per core; 0: this thread only). */
  workers?: number;
  /** The heap of each render worker, in MB (document-pool.ts). */
  workerHeapMb?: number;
  /** Rebuild everything even when `out` holds a tree of the same settings. */
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
  /**
   * Host rules to write beside the tree, precompressed siblings, the upstream for dynamic
   * requests. Left out, those the tree was last built with.
   */
  hosts?: HostOptions;
}

export interface BuildReport {
  documents: number;
  /** Documents with a metadata record but no readable text. */
  withoutText: number;
  passages: number;
  /** Files written by this build (an incremental build writes only what changed). */
  files: number;
  bytes: number;
  /** Documents whose output was kept from the previous tree. */
  reused: number;
  /** Documents by why they were written as they were (see plan.ts): "full build", "passages changed"... */
  reasons: Partial<Record<PlanReason, number>>;
  incremental: boolean;
  warnings: Warning[];
  seconds: number;
  /** What `hosts` wrote (rule counts per host, precompression). */
  hostFiles?: HostReport;
  /**
   * Where a client starts: the DTS 1.0 Entry when 1.0 is built (in the static profile, the file
   * `.../v1/index.jsonld`), else the 1-draft2 one. Absolute when the site URL is known.
   */
  entryPoint: string;
  /** The static profile's whole tree, as a file server (GitHub Pages) is handed it. */
  staticSite?: { files: number; bytes: number };
}

/** Catalogue nodes whose Collection answers are written together (all of one node's pages go together). */
const COLLECTION_NODES_PER_WRITE = 64;

export async function build(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  // Refuses, before anything is written, an --out that is not a tree, empty or new.
  const folder = checkTreeFolder(options.corpus, options.out);
  const out = folder.path;
  const methods = options.methods ?? ["GET"];
  const record = JSON.stringify({ outputVersion: OUTPUT_VERSION, site: options.site, methods });
  const incremental = !options.full && folder.state === "tree" && readTextOr(join(out, TREE_RECORD), "") === record;
  const { catalog, resources } = await loadDocumentsApart(options.corpus);

  const root = incremental ? out : makeStaging(out);
  // The record goes in first, so a staging folder left by a killed build is known as ours.
  if (!incremental) writeFileSync(join(root, TREE_RECORD), record);
  const heavy: Warning[] = [];
  const results = await writeDocuments(
    options.site,
    root,
    resources.map((r) => documentTask(options.corpus, r)),
    {
      inPlace: incremental,
      workers: options.workers,
      workerHeapMb: options.workerHeapMb,
      onProgress: options.onProgress,
      onRenderedHere: (task, heapMb) =>
        heavy.push({ file: task.name, message: `needed more than a render worker's ${heapMb} MB of heap: rendered on the main thread` }),
    },
  );
  if (incremental) removeDocumentsNotIn(root, options.site, resources);

  const texts = new Map<string, TextSummary>();
  results.forEach((r, i) => {
    texts.set(r.id, r.summary);
    fillFromHeader(resources[i], r.header);
  });
  const library: Library = { rootId: catalog.rootId, nodes: catalog.nodes, texts };
  const writer = new TreeWriter(root, { atomic: incremental, layout: options.site.layout, staticSite: options.site });
  const catalogJson = libraryToJson(library);
  if (!incremental || readTextOr(join(root, CATALOG_FILE), "") !== catalogJson) {
    // Written some nodes at a time: at 10x latinLit the collections are 144 MB, which were
    // held at once at the end of the build.
    const written = new Set<string>();
    const ids = [...library.nodes.keys()];
    for (let i = 0; i < ids.length; i += COLLECTION_NODES_PER_WRITE) {
      const some = new Set(ids.slice(i, i + COLLECTION_NODES_PER_WRITE));
      for (const stored of collectionResponses(options.site, library, some)) writer.write(stored);
      for (const path of writer.flush()) written.add(path);
    }
    if (incremental) {
      removeUnwritten(root, "collection", written);
      removeUnwritten(root, "v1/collection", written);
      for (const file of staticCollectionFiles(root, options.site)) if (!written.has(file)) rmSync(join(root, file), { force: true });
    }
    writer.writeData(CATALOG_FILE, catalogJson);
  }
  for (const stored of serviceResponses(options.site, methods)) writer.write(stored);
  writer.writeData(SITE_FILE, JSON.stringify(options.site));
  writer.flush();
  const page = writePageFiles(root, options.site);
  writer.writeData(TREE_RECORD, record);

  // Host options stay with the tree: a build that names none (a plain rebuild, `serve
  // --corpus`, `watch`) keeps those of the last build that did. The rules are regenerated
  // only when something changed, since on a large corpus they take longer than the build.
  const previousHosts = readTextOr(join(out, HOST_OPTIONS_FILE), "{}");
  const hostOptions: HostOptions = options.hosts ?? (JSON.parse(previousHosts) as HostOptions);
  const hostJson = JSON.stringify(hostOptions);
  const changed = results.filter((r) => !r.reused);
  const treeChanged = !incremental || changed.length > 0 || writer.files > 0 || hostJson !== previousHosts;
  if (hostOptions.hosts?.length || hostOptions.compress) writer.writeData(HOST_OPTIONS_FILE, hostJson);
  else rmSync(join(root, HOST_OPTIONS_FILE), { force: true });
  if (treeChanged) bumpGeneration(root);
  // Last, so that the files each host is handed are counted whole. Also removes the host files
  // and siblings of an earlier build when none are asked for now.
  const hostFiles = treeChanged ? await writeHostFiles(root, out, options.site, hostOptions) : { hosts: [], warnings: [] };
  if (!incremental) swapInto(root, out);
  const warnings = [...catalog.warnings, ...results.flatMap((r) => r.warnings), ...heavy, ...hostFiles.warnings, ...page.warnings];
  const staticSite = options.site.staticPaths ? treeSize(out) : undefined;
  const overPages = staticSite && checkLimit(out, "GitHub Pages", staticSite.bytes, LIMITS.githubPagesSize);
  if (overPages) warnings.push(overPages);

  return {
    documents: resources.length,
    withoutText: results.filter((r) => !r.summary.hasText).length,
    passages: sum(results, (r) => r.passages),
    files: sum(changed, (r) => r.files) + writer.files + page.files,
    bytes: sum(changed, (r) => r.bytes) + writer.bytes + page.bytes,
    reused: results.length - changed.length,
    reasons: countReasons(results),
    incremental,
    warnings,
    seconds: (performance.now() - started) / 1000,
    hostFiles,
    entryPoint: servesApi(options.site, "1.0")
      ? v1Url(options.site, { kind: "v1-entry" })
      : `${options.site.siteUrl ?? ""}${entryUrl(options.site)}`,
    ...(staticSite ? { staticSite } : {}),
  };
}

const sum = (results: DocumentResult[], f: (r: DocumentResult) => number): number => results.reduce((n, r) => n + f(r), 0);

/** Removes the folders of documents the corpus no longer lists. */
function removeDocumentsNotIn(root: string, site: Site, resources: ResourceNode[]): void {
  const keep = new Set(resources.map((r) => encodeName(r.id)));
  for (const kind of ["document", "navigation", "v1/document", "v1/navigation"]) {
    for (const name of listOr(join(root, kind))) {
      if (!keep.has(name)) rmSync(join(root, kind, name), { recursive: true, force: true });
    }
  }
  removeStaticDocumentsNotIn(root, site, new Set(resources.map((r) => r.id)));
}

/** Removes the folders under `folder` that were not just written (collections that went away). */
function removeUnwritten(root: string, folder: string, written: Set<string>): void {
  for (const name of listOr(join(root, folder))) {
    if (!written.has(`${folder}/${name}`)) rmSync(join(root, folder, name), { recursive: true, force: true });
  }
}

function countReasons(results: DocumentResult[]): Partial<Record<PlanReason, number>> {
  const out: Partial<Record<PlanReason, number>> = {};
  for (const r of results) if (r.reason) out[r.reason] = (out[r.reason] ?? 0) + 1;
  return out;
}
