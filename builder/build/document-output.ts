// One document's part of the tree: its source, every passage and navigation response, its
// index, and a build record (content hash and summary) that lets a later build reuse it.
// Documents own disjoint folders, so workers can write them in parallel.

import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { type DublinCore, type ResourceNode, type TextSummary, textSummary, type UnreadableSource, type Warning } from "../catalog.js";
import { CitedText } from "../citation/cited-text.js";
import { type DocIndex, type IndexProblem, indexDocument, XmlSyntaxError } from "../citation/indexer.js";
import { teiHeaderFromText } from "../metadata/tei-header.js";
import { listOr, readBytesOr, readJsonOr } from "../read-files.js";
import { renderDocument } from "../render/document.js";
import type { DtsResponse } from "../render/response.js";
import { renderV1Document } from "../render/v1/document.js";
import { documentResponses, textlessResponses } from "../responses.js";
import { type Site, servesApi } from "../site.js";
import { readBody, readFolder } from "../tree/folder-store.js";
import { documentFolder, INDEX_FILE, navigationFolder, requestToPath, splitTreePath, WHOLE_DOCUMENT } from "../tree/layout.js";
import { entryIn, type PackedEntries } from "../tree/packed-folder.js";
import { indexFromJson, indexToJson } from "../tree/stored-data.js";
import { TreeWriter } from "../tree/tree-writer.js";
import { staticFilesOf } from "../v1/static-files.js";
import { type DocumentPlan, type PlanFacts, type PlanReason, planDocument } from "./plan.js";

/** Bumped when the output of a document changes for the same source, so old records are not reused. */
export const OUTPUT_VERSION = 3;
export const BUILD_RECORD = "_build.json";

export interface DocumentTask {
  id: string;
  file: string;
  /** The file's path inside the corpus: what public answers may name. */
  name: string;
}

/** The task of a resource of the corpus in `corpus`. */
export function documentTask(corpus: string, resource: ResourceNode): DocumentTask {
  return { id: resource.id, file: resource.file, name: corpusName(corpus, resource.file) };
}

/** A file's path inside the corpus, with forward slashes; of a file outside it, only its name. */
export function corpusName(corpus: string, file: string): string {
  const inside = relative(resolve(corpus), file);
  return inside.startsWith("..") || isAbsolute(inside) ? basename(file) : inside.split(sep).join("/");
}

export interface DocumentResult {
  id: string;
  /** Content hash of the source and the settings it was built with ("" when there is no text). */
  hash: string;
  summary: TextSummary;
  /** Dublin Core read from the teiHeader, to fill what the metadata record leaves out. */
  header: DublinCore;
  warnings: Warning[];
  passages: number;
  files: number;
  bytes: number;
  /** True when the previous tree's output was kept as it was. */
  reused: boolean;
  /** Why it was written as it was (not part of the build record on disk). */
  reason?: PlanReason;
}

export function sourceHash(site: Site, source: Uint8Array): string {
  return createHash("sha1")
    .update(`${OUTPUT_VERSION}\n${JSON.stringify(site)}\n`)
    .update(source)
    .digest("hex");
}

/** The build record of a document in an existing tree, if any. */
export function readBuildRecord(root: string, id: string): DocumentResult | null {
  return readJsonOr<DocumentResult>(join(root, documentFolder(id), BUILD_RECORD));
}

/**
 * Writes a document's responses into the tree at `root`. With `inPlace`, files replace the
 * previous ones atomically, files the document no longer has are removed, and an unchanged
 * source (same hash as its build record) is left as it is.
 */
export function writeDocument(site: Site, root: string, task: DocumentTask, inPlace: boolean): DocumentResult {
  if (inPlace) return rewriteDocument(site, root, task).result;
  return { ...renderAll(site, root, task, false, readBytesOr(task.file)), reason: "full build" };
}

/**
 * Brings a document's responses in the tree up to date with its source, as `planDocument`
 * decides from what is gathered here: the source now, the build record, and (only when the
 * source changed, the one case the plan needs them) the index the tree was built from and the
 * index of the new source. What the caller already holds (`change`) is not read again.
 */
export function rewriteDocument(
  site: Site,
  root: string,
  task: DocumentTask,
  change: KnownChange = {},
): { result: DocumentResult; plan: DocumentPlan } {
  const source = change.next?.source ?? readBytesOr(task.file);
  const hash = source ? sourceHash(site, source) : "";
  const record = change.record !== undefined ? change.record : readBuildRecord(root, task.id);
  const facts: PlanFacts = { hash, record: record && { hash: record.hash, hasText: record.summary.hasText } };
  let old: EarlierOutput | null = null;
  let next: KnownSource | null = null;
  if (record && record.hash !== hash && record.summary.hasText && source) {
    old = earlierOutput(site, root, task, record, change);
    next = old && (change.next ?? indexedOrNull(source));
    facts.oldIndex = old?.index ?? null;
    facts.newIndex = next?.index ?? null;
  }
  const planned = planDocument(facts);
  // The fast path keeps the 1.0 answers too where it can read them; else the document is rewritten whole.
  const v1Entries = planned.mode === "passages" ? v1PassageEntries(site, root, task.id, next) : null;
  const plan: DocumentPlan = planned.mode === "passages" && v1Entries === undefined ? { ...planned, mode: "document" } : planned;
  const result =
    plan.mode === "unchanged"
      ? { ...record!, reused: true }
      : plan.mode === "passages"
        ? writePassages(site, root, task, old!, next!, hash, v1Entries ?? null, change.rendered)
        : renderAll(site, root, task, true, source, change.next);
  return { result: { ...result, reason: plan.reason }, plan };
}

/** Renders every response of a document (its text indexed here unless `known`). */
function renderAll(
  site: Site,
  root: string,
  task: DocumentTask,
  inPlace: boolean,
  source: Uint8Array | null,
  known?: KnownSource,
): DocumentResult {
  const hash = source ? sourceHash(site, source) : "";
  const writer = new TreeWriter(root, { atomic: inPlace, layout: site.layout, staticSite: site, folderByFolder: true });
  const staticBefore = inPlace ? staticFilesOf(root, site, task.id) : [];
  const warnings: Warning[] = [];
  const { text, unreadable, header } = readText(task, source, warnings, known);
  let summary: TextSummary;
  let passages = 0;
  if (text) {
    for (const stored of documentResponses(site, text)) writer.write(stored);
    writer.writeData(`${documentFolder(task.id)}/${INDEX_FILE}`, indexToJson(text.index));
    summary = textSummary(text.index);
    passages = text.units.length;
  } else {
    for (const stored of textlessResponses(site, task.id, unreadable)) writer.write(stored);
    summary = { hasText: false, maxCiteDepth: 0, citeStructure: [], ...(unreadable ? { unreadable } : {}) };
  }
  const written = writer.flush();
  for (const file of staticBefore) if (!written.has(file)) rmSync(join(root, file), { force: true });
  // A document that had text and has none now (or the reverse) leaves no folder of the other kind behind.
  if (inPlace && !text) rmSync(join(root, navigationFolder(task.id)), { recursive: true, force: true });
  const result: DocumentResult = {
    id: task.id,
    hash: text ? hash : "",
    summary,
    header,
    warnings,
    passages,
    files: writer.files + 1,
    bytes: writer.bytes,
    reused: false,
  };
  writer.writeData(`${documentFolder(task.id)}/${BUILD_RECORD}`, JSON.stringify(result));
  return result;
}

/**
 * A document's source read as the build reads it (`dts check` too): its citable text, or where
 * its XML breaks, and its teiHeader's Dublin Core; the problems go into `warnings`.
 */
export function readText(
  task: DocumentTask,
  source: Uint8Array | null,
  warnings: Warning[],
  known?: KnownSource,
): { text: CitedText | null; unreadable?: UnreadableSource; header: DublinCore } {
  const read = known ? indexed(task, known, warnings) : source ? index(task, source, warnings) : null;
  if (!(read instanceof CitedText)) return { text: null, unreadable: read ?? undefined, header: {} };
  const bytes = Buffer.from(read.source.buffer, read.source.byteOffset, read.source.length);
  return { text: read, header: teiHeaderFromText(bytes.toString("utf8"), task.file, warnings).dublinCore };
}

function indexed(task: DocumentTask, known: KnownSource, warnings: Warning[]): CitedText {
  for (const p of known.problems) warnings.push({ file: task.file, line: p.line, column: p.column, message: p.message });
  return new CitedText(task.id, known.index, known.source);
}

/** The document's citable text, or (not well formed) where its XML breaks, with a warning. */
function index(task: DocumentTask, source: Uint8Array, warnings: Warning[]): CitedText | UnreadableSource {
  try {
    return indexed(task, { source, ...indexDocument(source) }, warnings);
  } catch (e) {
    if (!(e instanceof XmlSyntaxError)) throw e;
    warnings.push({
      file: task.file,
      line: e.line,
      column: e.column,
      message: `not well-formed XML (${e.reason}); the document answers 409 saying so until the file is fixed`,
    });
    return { file: task.name, line: e.line, column: e.column, reason: e.reason };
  }
}

/** Removes the temporary files of atomic writes (`<name>.tmp-<pid>-<thread>`) a crash left in a folder. */
function removeTemporaries(root: string, folder: string): void {
  for (const name of listOr(join(root, folder))) if (/\.tmp-\d+-\d+$/.test(name)) rmSync(join(root, folder, name), { force: true });
}

/**
 * What the fast path needs of a document's DTS 1.0 answers: null when the tree serves no 1.0
 * (or holds it as static files, which need no manifest), the entries of its packed 1.0 document
 * folder, or undefined when the fast path cannot keep them (no such folder, or several citation
 * trees, whose passages a change may cut differently).
 */
function v1PassageEntries(site: Site, root: string, id: string, next: KnownSource | null): PackedEntries | null | undefined {
  if (!servesApi(site, "1.0")) return null;
  if (next?.index.trees?.length) return undefined;
  if (site.staticPaths) return null;
  return readFolder(root, `v1/${documentFolder(id)}`)?.entries ?? undefined;
}

/** A source already read and indexed by the caller (the write API), to save doing it twice. */
export interface KnownSource {
  source: Uint8Array;
  index: DocIndex;
  problems: IndexProblem[];
}

/** What a caller of a rebuild already holds, so that it is not read, indexed or rendered again. */
export interface KnownChange {
  /** The new source, indexed. */
  next?: KnownSource;
  /** The source it replaced, indexed: used instead of the tree's copy when its hash is the build record's. */
  previous?: { source: Uint8Array; index: DocIndex };
  /** The build record, when read already (null: there is none). */
  record?: DocumentResult | null;
  /** Filled with the passages the rebuild rendered, by reference, for the caller to answer with. */
  rendered?: Map<string, DtsResponse>;
}

/** The source and index the tree was built from (the caller's when it holds them, else the tree's copy), and the document folder's entries. */
interface EarlierOutput {
  source: Uint8Array;
  index: DocIndex;
  entries: PackedEntries;
}

/**
 * The tree's own copy of the source and its index, trusted only when the copy's hash is the
 * build record's; null when either is missing or not the one the record names.
 */
function earlierOutput(site: Site, root: string, task: DocumentTask, record: DocumentResult, change: KnownChange): EarlierOutput | null {
  const folder = documentFolder(task.id);
  if (change.previous && sourceHash(site, change.previous.source) === record.hash) {
    const contents = readFolder(root, folder);
    return contents && { ...change.previous, entries: contents.entries };
  }
  // Not handed over by a write: maybe a rebuild after a crash, which may have left a temporary file.
  removeTemporaries(root, folder);
  const contents = readFolder(root, folder);
  const whole = contents && entryIn(contents.entries, WHOLE_DOCUMENT);
  const source = whole && readBody(root, folder, whole);
  if (!contents || !source || sourceHash(site, source) !== record.hash) return null;
  try {
    return { source, index: indexFromJson(readFileSync(join(root, folder, INDEX_FILE), "utf8")), entries: contents.entries };
  } catch {
    return null;
  }
}

function indexedOrNull(source: Uint8Array): KnownSource | null {
  try {
    return { source, ...indexDocument(source) };
  } catch (e) {
    if (e instanceof XmlSyntaxError) return null;
    throw e;
  }
}

/**
 * The fast path of a document rebuild, when its citation structure did not change (a PUT of
 * one passage, an edit of a line in an editor): the units keep their references, levels,
 * parents, citeTypes and namespaces, so every Link header, every navigation response and every
 * manifest stays as it is. Only the whole document, the passages whose bytes changed, the
 * index and the build record are written, each atomically, the build record last: a crash in
 * between leaves a record that does not match the source, and the next build rewrites the
 * document in full. The passages rendered go into `rendered`, for a write to answer with.
 */
function writePassages(
  site: Site,
  root: string,
  task: DocumentTask,
  old: EarlierOutput,
  next: KnownSource,
  hash: string,
  v1Entries: PackedEntries | null,
  rendered?: Map<string, DtsResponse>,
): DocumentResult {
  const folder = documentFolder(task.id);
  const v1Folder = `v1/${folder}`;
  const v1 = servesApi(site, "1.0");
  const draft = servesApi(site, "1-draft2");
  const { source, index } = next;
  const warnings: Warning[] = next.problems.map((p) => ({ file: task.file, line: p.line, column: p.column, message: p.message }));
  const text = new CitedText(task.id, index, source);
  const oldBytes = Buffer.from(old.source.buffer, old.source.byteOffset, old.source.length);
  const newBytes = Buffer.from(source.buffer, source.byteOffset, source.length);
  const writer = new TreeWriter(root, { atomic: true, layout: site.layout, staticSite: site });
  const changed = new Set<string>();
  const v1Changed = new Set<string>();
  // A 1.0 Document answer of a changed passage (in the static profile, its file).
  const writeV1 = (ref?: string): void => {
    const request = { kind: "v1-document", resource: task.id, ref } as const;
    writer.write({ request, response: renderV1Document(site, request, text) });
    if (v1Entries) v1Changed.add(splitTreePath(requestToPath(request)!).name);
  };
  index.units.forEach((u, i) => {
    const o = old.index.units[i];
    if (u.end - u.start === o.end - o.start && newBytes.subarray(u.start, u.end).equals(oldBytes.subarray(o.start, o.end))) return;
    const request = { kind: "document", id: task.id, ref: u.ref } as const;
    const response = renderDocument(site, request, text);
    rendered?.set(u.ref, response);
    // A tree of 1.0 alone keeps no 1-draft2 passages (its folder holds the whole source only).
    if (draft) {
      writer.write({ request, response });
      changed.add(splitTreePath(requestToPath(request)!).name);
    }
    if (v1) writeV1(u.ref);
  });
  const whole = { kind: "document", id: task.id } as const;
  writer.write({ request: whole, response: renderDocument(site, whole, text) });
  changed.add(WHOLE_DOCUMENT);
  if (v1) writeV1();
  // The other passages keep their bytes where they lie: the folder gets one small new pack. The
  // Navigation answers, of both APIs, say nothing but the structure, which did not change.
  for (const [name, entry] of Object.entries(old.entries)) if (!changed.has(name)) writer.keep(folder, { name, entry });
  for (const [name, entry] of Object.entries(v1Entries ?? {})) if (!v1Changed.has(name)) writer.keep(v1Folder, { name, entry });
  writer.flush();
  writer.writeData(`${folder}/${INDEX_FILE}`, indexToJson(index));
  const header = teiHeaderFromText(newBytes.toString("utf8"), task.file, warnings).dublinCore;
  const result: DocumentResult = {
    id: task.id,
    hash,
    summary: textSummary(index),
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
