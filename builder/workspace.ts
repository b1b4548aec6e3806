// A corpus and its built tree, kept in memory by a long-running process (the write API,
// `dts watch`), so that after a change only what it touches is rebuilt.

import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BuildReport, build } from "./build.js";
import type { HostOptions } from "./hosts/index.js";
import { type Library, type ResourceNode, type Warning, fillFromHeader } from "./catalog.js";
import { CitedText } from "./citation/cited-text.js";
import { type DocIndex, type IndexProblem, XmlSyntaxError, indexDocument } from "./citation/index.js";
import { BUILD_RECORD, type DocumentResult, readBuildRecord, sourceHash, writeDocument } from "./document-output.js";
import { loadCatalog } from "./metadata/load.js";
import { teiHeaderFromText } from "./metadata/tei-header.js";
import { renderDocument } from "./render/document.js";
import type { DocumentMethod } from "./render/service.js";
import { CATALOG_FILE, INDEX_FILE, SIBLING_SUFFIX, documentFolder, requestToPath } from "./request.js";
import { collectionResponses, serviceResponses } from "./responses.js";
import type { Site } from "./site.js";
import { indexFromJson, indexToJson, libraryToJson } from "./stored-data.js";
import { TreeWriter, bumpGeneration } from "./tree-writer.js";

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
  /**
   * How the document's responses were brought up to date: "unchanged" (same source as the
   * tree's), "passages" (same citation structure: only the passages whose text changed, the
   * whole document and the index were rewritten), "document" (every response rendered again).
   */
  mode: "unchanged" | "passages" | "document";
  seconds: number;
}

/** A source already read and indexed by the caller (the write API), to save doing it twice. */
export interface KnownSource {
  source: Uint8Array;
  index: DocIndex;
  problems: IndexProblem[];
}

export class Workspace {
  private byFile: Map<string, string> | null = null;

  private constructor(
    readonly options: WorkspaceOptions,
    private libraryState: Library,
  ) {}

  /** Brings the tree up to date with the corpus (an incremental build) and keeps the catalogue. */
  static async open(options: WorkspaceOptions): Promise<{ workspace: Workspace; report: BuildReport }> {
    const report = await build({ corpus: options.corpus, out: options.dist, site: options.site, methods: options.methods, hosts: options.hosts });
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

  /** Whether a resource's TEI file exists. */
  hasSourceFile(id: string): boolean {
    const r = this.resource(id);
    return r !== undefined && existsSync(r.file);
  }

  /**
   * Rewrites a document's responses after its source changed on disk, and the collection
   * responses of the document and its parents when what they say of it changed.
   */
  rebuildDocument(id: string, known?: KnownSource): DocumentRebuild {
    const started = performance.now();
    const resource = this.resource(id);
    if (!resource) throw new Error(`no resource with the id "${id}"`);
    const task = { id, file: resource.file };
    const previousHeader = JSON.stringify(readBuildRecord(this.options.dist, id)?.header ?? {});
    let result = updatePassages(this.options.site, this.options.dist, task, known);
    const mode = result === null ? "document" : result.reused ? "unchanged" : "passages";
    result ??= writeDocument(this.options.site, this.options.dist, task, true);
    const before = JSON.stringify([this.libraryState.texts.get(id), resource.dublinCore]);
    this.libraryState.texts.set(id, result.summary);
    fillFromHeader(resource, result.header);
    const collectionsChanged = JSON.stringify([result.summary, resource.dublinCore]) !== before;
    let files = result.reused ? 0 : result.files;
    if (collectionsChanged) files += this.rewriteCollections([id, ...resource.parents]);
    const headerChanged = JSON.stringify(result.header ?? {}) !== previousHeader;
    if (files > 0) bumpGeneration(this.options.dist);
    return { id, files, collectionsChanged, headerChanged, result, mode, seconds: (performance.now() - started) / 1000 };
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
    const writer = new TreeWriter(this.options.dist, { atomic: true });
    for (const stored of collectionResponses(this.options.site, this.libraryState, new Set(ids))) writer.write(stored);
    writer.writeData(CATALOG_FILE, libraryToJson(this.libraryState));
    writer.flush();
    return writer.files;
  }

  /** Rewrites the service documents (after the enabled methods changed). */
  writeServiceDocuments(methods: DocumentMethod[]): void {
    const writer = new TreeWriter(this.options.dist, { atomic: true });
    for (const stored of serviceResponses(this.options.site, methods)) writer.write(stored);
    writer.flush();
  }

}

/**
 * The fast path of a document rebuild, when its citation structure did not change (a PUT of
 * one passage, an edit of a line in an editor): compared with the previous source (the
 * tree's own copy, trusted only when its build record's hash matches it), the units keep
 * their references, levels, parents, citeTypes and namespaces, so every Link header, every
 * navigation response and every manifest stays as it is. Only the whole document, the
 * passages whose bytes changed, the index and the build record are written, each atomically,
 * the build record last: a crash in between leaves a record that does not match the source,
 * and the next build rewrites the document in full.
 *
 * Returns null when the fast path does not apply (no previous output, a different structure,
 * a source that is not well formed): the caller renders the document in full.
 */
export function updatePassages(site: Site, root: string, task: { id: string; file: string }, known?: KnownSource): DocumentResult | null {
  const folder = documentFolder(task.id);
  const previous = readBuildRecord(root, task.id);
  if (!previous || !previous.summary.hasText) return null;
  const old = readOrNull(join(root, folder, "_.xml"));
  if (!old || sourceHash(site, old) !== previous.hash) return null;
  const source = known?.source ?? readOrNull(task.file);
  if (!source) return null;
  const hash = sourceHash(site, source);
  if (hash === previous.hash) return { ...previous, reused: true };
  let oldIndex: DocIndex;
  try {
    oldIndex = indexFromJson(readFileSync(join(root, folder, INDEX_FILE), "utf8"));
  } catch {
    return null;
  }
  let indexed = known;
  if (!indexed) {
    try {
      indexed = { source, ...indexDocument(source) };
    } catch (e) {
      if (e instanceof XmlSyntaxError) return null;
      throw e;
    }
  }
  const index = indexed.index;
  const warnings: Warning[] = indexed.problems.map((p) => ({ file: task.file, line: p.line, column: p.column, message: p.message }));
  if (!sameStructure(oldIndex, index)) return null;

  const text = new CitedText(task.id, index, source);
  const oldBytes = Buffer.from(old.buffer, old.byteOffset, old.length);
  const newBytes = Buffer.from(source.buffer, source.byteOffset, source.length);
  const writer = new TreeWriter(root, { atomic: true });
  const rewrite = (path: string, body: string | Uint8Array): void => {
    const before = writer.files;
    writer.writeData(path, body);
    // A precompressed sibling of the old bytes would now be wrong: the plain file is served instead.
    if (writer.files !== before) for (const suffix of Object.values(SIBLING_SUFFIX)) rmSync(join(root, path + suffix), { force: true });
  };
  rewrite(`${folder}/_.xml`, source);
  index.units.forEach((u, i) => {
    const o = oldIndex.units[i];
    if (u.end - u.start === o.end - o.start && newBytes.subarray(u.start, u.end).equals(oldBytes.subarray(o.start, o.end))) return;
    const request = { kind: "document", id: task.id, ref: u.ref } as const;
    rewrite(requestToPath(request)!, renderDocument(site, request, text).body);
  });
  writer.writeData(`${folder}/${INDEX_FILE}`, indexToJson(index));
  const header = teiHeaderFromText(newBytes.toString("utf8"), task.file, warnings).dublinCore;
  const result: DocumentResult = {
    id: task.id,
    hash,
    summary: { hasText: true, maxCiteDepth: index.maxCiteDepth, citeStructure: index.citeStructure },
    header,
    warnings,
    passages: index.units.length,
    files: writer.files + 1,
    bytes: writer.bytes,
    reused: false,
  };
  writer.writeData(`${folder}/${BUILD_RECORD}`, JSON.stringify(result));
  return result;
}

/** Same units (reference, level, parent, citeType, element), same ancestors and namespaces, same declarations. */
function sameStructure(a: DocIndex, b: DocIndex): boolean {
  if (a.scheme !== b.scheme || a.maxCiteDepth !== b.maxCiteDepth || a.doctype !== b.doctype) return false;
  if (JSON.stringify(a.citeStructure) !== JSON.stringify(b.citeStructure)) return false;
  if (a.units.length !== b.units.length || a.elements.length !== b.elements.length) return false;
  for (let i = 0; i < a.units.length; i++) {
    const x = a.units[i];
    const y = b.units[i];
    if (x.ref !== y.ref || x.level !== y.level || x.parent !== y.parent || x.element !== y.element || x.citeType !== y.citeType) return false;
  }
  for (let i = 0; i < a.elements.length; i++) {
    const x = a.elements[i];
    const y = b.elements[i];
    if (x.parent !== y.parent || x.ns.join(" ") !== y.ns.join(" ")) return false;
  }
  return true;
}

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
