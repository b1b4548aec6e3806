// A corpus and its built tree, kept in memory by a long-running process (the write API,
// `dts watch`), so that after a change only what it touches is rebuilt.

import { resolve } from "node:path";
import { fillFromHeader, type Library, type ResourceNode } from "../catalog.js";
import type { HostOptions } from "../hosts/host-files.js";
import { loadCatalog } from "../metadata/load.js";
import type { DocumentMethod } from "../render/service.js";
import { collectionResponses } from "../responses.js";
import type { Site } from "../site.js";
import { CATALOG_FILE } from "../tree/layout.js";
import { libraryToJson } from "../tree/stored-data.js";
import { bumpGeneration, TreeWriter } from "../tree/tree-writer.js";
import { type BuildReport, build } from "./build.js";
import { type DocumentResult, documentTask, type KnownChange, readBuildRecord, rewriteDocument } from "./document-output.js";
import type { DocumentPlan } from "./plan.js";

export interface WorkspaceOptions {
  corpus: string;
  dist: string;
  site: Site;
  methods?: DocumentMethod[];
  /**
   * Host rules and precompression to keep when the whole tree is brought up to date (at open,
   * and after metadata changes): a build without them removes those of an earlier build.
   */
  hosts?: HostOptions;
}

export interface DocumentRebuild {
  id: string;
  /** Files whose bytes changed. */
  files: number;
  /** Collection responses rewritten because the document's summary or header changed. */
  collectionsChanged: boolean;
  /**
   * The Dublin Core read from the teiHeader changed. The catalogue may say something else of
   * the document now (in the native layout its title comes from there): reload it with rebuildAll().
   */
  headerChanged: boolean;
  result: DocumentResult;
  /** How the document's responses were brought up to date, and why (see plan.ts). */
  plan: DocumentPlan;
  seconds: number;
}

/** What readers of the tree must forget: everything, or one document (and its navigation manifest unless kept). */
export type Stale = "all" | { id: string; keepNavigation: boolean };

/**
 * The one invalidation rule after a document's rebuild (the write API and the watcher): when
 * what the collections say of it changed, everything; otherwise that document, keeping its
 * navigation manifest when its citation structure stayed as it was (its document manifest
 * always changes: changed passages are packed anew).
 */
export function staleAfter(r: DocumentRebuild): Stale {
  return r.collectionsChanged ? "all" : { id: r.id, keepNavigation: r.plan.mode !== "document" };
}

export class Workspace {
  private byFile: Map<string, string> | null = null;

  private constructor(
    readonly options: WorkspaceOptions,
    private libraryState: Library,
  ) {}

  /** Brings the tree up to date with the corpus (an incremental build) and keeps the catalogue. */
  static async open(options: WorkspaceOptions): Promise<{ workspace: Workspace; report: BuildReport }> {
    const report = await build({
      corpus: options.corpus,
      out: options.dist,
      site: options.site,
      methods: options.methods,
      hosts: options.hosts,
    });
    const workspace = new Workspace(options, await Workspace.loadLibrary(options));
    return { workspace, report };
  }

  /** The catalogue with each document's summary, as the tree's `_catalog.json` has it. */
  private static async loadLibrary(options: WorkspaceOptions): Promise<Library> {
    const catalog = await loadCatalog(options.corpus);
    const texts = new Map();
    for (const node of catalog.nodes.values()) {
      if (node.kind !== "resource") continue;
      const record = readBuildRecord(options.dist, node.id);
      texts.set(node.id, record?.summary ?? { hasText: false, maxCiteDepth: 0, citeStructure: [] });
      if (record) fillFromHeader(node, record.header);
    }
    return { rootId: catalog.rootId, nodes: catalog.nodes, texts };
  }

  get library(): Library {
    return this.libraryState;
  }

  resource(id: string): ResourceNode | undefined {
    const node = this.libraryState.nodes.get(id);
    return node?.kind === "resource" ? node : undefined;
  }

  /** The id of the resource whose TEI file is `file` (an absolute path), if any. */
  resourceByFile(file: string): string | undefined {
    if (!this.byFile) {
      this.byFile = new Map();
      for (const node of this.libraryState.nodes.values()) if (node.kind === "resource") this.byFile.set(resolve(node.file), node.id);
    }
    return this.byFile.get(resolve(file));
  }

  /**
   * Rewrites a document's responses after its source changed on disk, and the collection
   * responses of the document and its parents when what they say of it changed.
   */
  rebuildDocument(id: string, change: KnownChange = {}): DocumentRebuild {
    const started = performance.now();
    const resource = this.resource(id);
    if (!resource) throw new Error(`no resource with the id "${id}"`);
    const task = documentTask(this.options.corpus, resource);
    const record = change.record !== undefined ? change.record : readBuildRecord(this.options.dist, id);
    const previousHeader = JSON.stringify(record?.header ?? {});
    const { result, plan } = rewriteDocument(this.options.site, this.options.dist, task, { ...change, record });
    const before = JSON.stringify([this.libraryState.texts.get(id), resource.dublinCore]);
    this.libraryState.texts.set(id, result.summary);
    fillFromHeader(resource, result.header);
    const collectionsChanged = JSON.stringify([result.summary, resource.dublinCore]) !== before;
    let files = result.reused ? 0 : result.files;
    if (collectionsChanged) files += this.rewriteCollections([id, ...resource.parents]);
    const headerChanged = JSON.stringify(result.header ?? {}) !== previousHeader;
    if (files > 0) bumpGeneration(this.options.dist);
    return { id, files, collectionsChanged, headerChanged, result, plan, seconds: (performance.now() - started) / 1000 };
  }

  /** After metadata files changed: reload the catalogue and bring the whole tree up to date. */
  async rebuildAll(): Promise<BuildReport> {
    const report = await build({
      corpus: this.options.corpus,
      out: this.options.dist,
      site: this.options.site,
      methods: this.options.methods,
      hosts: this.options.hosts,
    });
    this.libraryState = await Workspace.loadLibrary(this.options);
    this.byFile = null;
    return report;
  }

  /** Rewrites (atomically, skipping equal bytes) the collection responses of some nodes, and the catalogue file. */
  private rewriteCollections(ids: string[]): number {
    const site = this.options.site;
    const writer = new TreeWriter(this.options.dist, { atomic: true, layout: site.layout, staticSite: site });
    for (const stored of collectionResponses(this.options.site, this.libraryState, new Set(ids))) writer.write(stored);
    writer.writeData(CATALOG_FILE, libraryToJson(this.libraryState));
    writer.flush();
    return writer.files;
  }
}
