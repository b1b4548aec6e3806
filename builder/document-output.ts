// One document's part of the tree: its source, every passage and navigation response, its
// index, and a build record (content hash and summary) that lets a later build reuse it.
// Documents own disjoint folders, so workers can write them in parallel.

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { DublinCore, TextSummary, Warning } from "./catalog.js";
import { CitedText } from "./citation/cited-text.js";
import { XmlSyntaxError, indexDocument } from "./citation/index.js";
import { teiHeaderFromText } from "./metadata/tei-header.js";
import { INDEX_FILE, MANIFEST, documentFolder, navigationFolder } from "./request.js";
import { documentResponses, textlessResponses } from "./responses.js";
import type { Site } from "./site.js";
import { indexToJson } from "./stored-data.js";
import { type FileSink, TreeWriter } from "./tree-writer.js";

/** Bumped when the output of a document changes for the same source, so old records are not reused. */
export const OUTPUT_VERSION = 2;
export const BUILD_RECORD = "_build.json";

export interface DocumentTask {
  id: string;
  file: string;
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
}

export function sourceHash(site: Site, source: Uint8Array): string {
  return createHash("sha1").update(`${OUTPUT_VERSION}\n${JSON.stringify(site)}\n`).update(source).digest("hex");
}

function readSource(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** The build record of a document in an existing tree, if any. */
export function readBuildRecord(root: string, id: string): DocumentResult | null {
  try {
    return JSON.parse(readFileSync(join(root, documentFolder(id), BUILD_RECORD), "utf8")) as DocumentResult;
  } catch {
    return null;
  }
}

/**
 * Writes a document's responses into the tree at `root`. With `inPlace`, files replace the
 * previous ones atomically, files the document no longer has are removed, and an unchanged
 * source (same hash as its build record) is left as it is.
 */
export function writeDocument(site: Site, root: string, task: DocumentTask, inPlace: boolean, sink?: FileSink): DocumentResult {
  const source = readSource(task.file);
  const hash = source ? sourceHash(site, source) : "";
  if (inPlace) {
    const previous = readBuildRecord(root, task.id);
    if (previous && previous.hash === hash) return { ...previous, reused: true };
  }
  const writer = new TreeWriter(root, { atomic: inPlace, sink });
  const warnings: Warning[] = [];
  const text = source ? index(task, source, warnings) : null;
  let summary: TextSummary;
  let header: DublinCore = {};
  let passages = 0;
  if (text) {
    for (const stored of documentResponses(site, text)) writer.write(stored);
    writer.writeData(`${documentFolder(task.id)}/${INDEX_FILE}`, indexToJson(text.index));
    summary = { hasText: true, maxCiteDepth: text.index.maxCiteDepth, citeStructure: text.index.citeStructure };
    header = teiHeaderFromText(source!.toString("utf8"), task.file, warnings).dublinCore;
    passages = text.units.length;
  } else {
    for (const stored of textlessResponses(site, task.id)) writer.write(stored);
    summary = { hasText: false, maxCiteDepth: 0, citeStructure: [] };
  }
  const written = writer.flush();
  if (inPlace) removeStale(root, [documentFolder(task.id), navigationFolder(task.id)], written);
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

function index(task: DocumentTask, source: Buffer, warnings: Warning[]): CitedText | null {
  try {
    const { index, problems } = indexDocument(source);
    for (const p of problems) warnings.push({ file: task.file, line: p.line, column: p.column, message: p.message });
    return new CitedText(task.id, index, source);
  } catch (e) {
    if (!(e instanceof XmlSyntaxError)) throw e;
    warnings.push({
      file: task.file,
      line: e.line,
      column: e.column,
      message: `not well-formed XML (${e.reason}); the document is served as having no text`,
    });
    return null;
  }
}

const KEEP = new Set([MANIFEST, BUILD_RECORD]);

/** Removes the files of `folders` that this build did not write (passages that no longer exist). */
function removeStale(root: string, folders: string[], written: Set<string>): void {
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(join(root, folder));
    } catch {
      continue;
    }
    for (const name of names) {
      if (!KEEP.has(name) && !written.has(`${folder}/${name}`)) rmSync(join(root, folder, name), { force: true });
    }
  }
}
