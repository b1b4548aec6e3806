// The build: corpus -> catalogue and citation indexes -> every stored response in `out`.
// The tree is written beside `out` and swapped in at the end, so a server reading `out`
// never sees a half-built tree.

import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import type { Library, ResourceNode, TextSummary, Warning } from "./catalog.js";
import { CitedText } from "./citation/cited-text.js";
import { XmlSyntaxError, indexDocument } from "./citation/index.js";
import { loadCatalog } from "./metadata/load.js";
import type { DocumentMethod } from "./render/service.js";
import { CATALOG_FILE, INDEX_FILE, SITE_FILE, documentFolder } from "./request.js";
import { collectionResponses, documentResponses, serviceResponses, textlessResponses } from "./responses.js";
import type { Site } from "./site.js";
import { indexToJson, libraryToJson } from "./stored-data.js";
import { TreeWriter } from "./tree-writer.js";

export interface BuildOptions {
  corpus: string;
  out: string;
  site: Site;
  methods?: DocumentMethod[];
  onProgress?: (done: number, total: number) => void;
}

export interface BuildReport {
  documents: number;
  /** Documents with a metadata record but no readable text. */
  withoutText: number;
  passages: number;
  files: number;
  bytes: number;
  warnings: Warning[];
  seconds: number;
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const out = resolve(options.out);
  const staging = `${out}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const catalog = await loadCatalog(options.corpus);
  const warnings = [...catalog.warnings];
  const writer = new TreeWriter(staging);
  const texts = new Map<string, TextSummary>();
  const resources = [...catalog.nodes.values()].filter((n): n is ResourceNode => n.kind === "resource");
  let passages = 0;
  let withoutText = 0;

  resources.forEach((resource, i) => {
    const text = readText(resource, warnings);
    if (text) {
      for (const stored of documentResponses(options.site, text)) writer.write(stored);
      writer.writeData(`${documentFolder(resource.id)}/${INDEX_FILE}`, indexToJson(text.index));
      passages += text.units.length;
      texts.set(resource.id, { hasText: true, maxCiteDepth: text.index.maxCiteDepth, citeStructure: text.index.citeStructure });
    } else {
      withoutText++;
      for (const stored of textlessResponses(options.site, resource.id)) writer.write(stored);
      texts.set(resource.id, { hasText: false, maxCiteDepth: 0, citeStructure: [] });
    }
    writer.flush();
    options.onProgress?.(i + 1, resources.length);
  });

  const library: Library = { rootId: catalog.rootId, nodes: catalog.nodes, texts };
  for (const stored of collectionResponses(options.site, library)) writer.write(stored);
  for (const stored of serviceResponses(options.site, options.methods ?? ["GET"])) writer.write(stored);
  writer.writeData(CATALOG_FILE, libraryToJson(library));
  writer.writeData(SITE_FILE, JSON.stringify(options.site));
  writer.flush();

  swapInto(staging, out);
  return {
    documents: resources.length,
    withoutText,
    passages,
    files: writer.files,
    bytes: writer.bytes,
    warnings,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Reads and indexes a resource's text; null (with a warning when it exists) if it cannot. */
function readText(resource: ResourceNode, warnings: Warning[]): CitedText | null {
  let source: Buffer;
  try {
    source = readFileSync(resource.file);
  } catch {
    return null;
  }
  try {
    const { index, problems } = indexDocument(source);
    for (const p of problems) warnings.push({ file: resource.file, line: p.line, column: p.column, message: p.message });
    return new CitedText(resource.id, index, source);
  } catch (e) {
    if (!(e instanceof XmlSyntaxError)) throw e;
    warnings.push({
      file: resource.file,
      line: e.line,
      column: e.column,
      message: `not well-formed XML (${e.reason}); the document is served as having no text`,
    });
    return null;
  }
}

/** Replaces `out` with `staging` in two renames, then removes the old tree. */
function swapInto(staging: string, out: string): void {
  const old = `${out}.old-${process.pid}`;
  if (existsSync(out)) renameSync(out, old);
  renameSync(staging, out);
  rmSync(old, { recursive: true, force: true });
}
