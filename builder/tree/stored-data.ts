// The data files beside the responses: a document's citation index and the catalogue, in
// compact JSON, so a reader on any runtime can compute what the tree does not hold.

import type { CatalogNode, Library, TextSummary } from "../catalog.js";
import type { DocIndex } from "../citation/indexer.js";
import type { CiteStructureJson } from "../citation/scheme.js";

const INDEX_VERSION = 1;

export function indexToJson(index: DocIndex): string {
  const trees = index.trees?.map((t) => ({ identifier: t.identifier, ...indexRecord(t.index) }));
  // `trees` last and only when there are some: an ordinary document's file is as before.
  return JSON.stringify({ v: INDEX_VERSION, ...indexRecord(index), ...(trees?.length ? { trees } : {}) });
}

type UnitRow = [ref: string, level: number, parent: number, element: number, start: number, end: number, citeType: number];
type ElementRow = [start: number, startEnd: number, closeStart: number, closeEnd: number, parent: number, ns?: string[]];

/** One tree's index in compact form: citeTypes listed once, units and elements as rows. */
interface IndexRecord {
  scheme: DocIndex["scheme"];
  maxCiteDepth: number;
  citeStructure: CiteStructureJson[];
  doctype: string | null;
  length: number;
  citeTypes: string[];
  units: UnitRow[];
  elements: ElementRow[];
}

function indexRecord(index: DocIndex): IndexRecord {
  const types: string[] = [];
  const typeIndex = new Map<string, number>();
  const units = index.units.map((u): UnitRow => {
    let t = typeIndex.get(u.citeType);
    if (t === undefined) {
      t = types.push(u.citeType) - 1;
      typeIndex.set(u.citeType, t);
    }
    return [u.ref, u.level, u.parent, u.element, u.start, u.end, t];
  });
  const elements = index.elements.map((e) => {
    const row: ElementRow = [e.start, e.startEnd, e.closeStart, e.closeEnd, e.parent];
    if (e.ns.length) row.push(e.ns);
    return row;
  });
  return {
    scheme: index.scheme,
    maxCiteDepth: index.maxCiteDepth,
    citeStructure: index.citeStructure,
    doctype: index.doctype ?? null,
    length: index.length,
    citeTypes: types,
    units,
    elements,
  };
}

export function indexFromJson(text: string): DocIndex {
  const raw = JSON.parse(text);
  if (raw.v !== INDEX_VERSION) throw new Error(`index version ${raw.v} is not ${INDEX_VERSION}: rebuild the tree`);
  const index = indexFromRecord(raw);
  if (Array.isArray(raw.trees) && raw.trees.length) {
    index.trees = raw.trees.map((t: IndexRecord & { identifier: string }) => ({ identifier: t.identifier, index: indexFromRecord(t) }));
  }
  return index;
}

function indexFromRecord(raw: IndexRecord): DocIndex {
  return {
    scheme: raw.scheme,
    maxCiteDepth: raw.maxCiteDepth,
    citeStructure: raw.citeStructure,
    doctype: raw.doctype ?? undefined,
    length: raw.length,
    units: raw.units.map((u) => ({
      ref: u[0],
      level: u[1],
      parent: u[2],
      element: u[3],
      start: u[4],
      end: u[5],
      citeType: raw.citeTypes[u[6]],
    })),
    elements: raw.elements.map((e) => ({
      start: e[0],
      startEnd: e[1],
      closeStart: e[2],
      closeEnd: e[3],
      parent: e[4],
      ns: e[5] ?? [],
    })),
  };
}

/** The catalogue without file paths: the tree is public, the build machine's layout is not. */
export function libraryToJson(library: Library): string {
  const nodes = [...library.nodes.values()].map((n) => {
    if (n.kind === "collection") return n;
    const { file: _file, metadataFile: _meta, ...rest } = n;
    return rest;
  });
  return JSON.stringify({ rootId: library.rootId, nodes, texts: Object.fromEntries(library.texts) });
}

export function libraryFromJson(text: string): Library {
  const raw = JSON.parse(text) as { rootId: string; nodes: CatalogNode[]; texts: Record<string, TextSummary> };
  return {
    rootId: raw.rootId,
    nodes: new Map(raw.nodes.map((n) => [n.id, n.kind === "resource" ? { ...n, file: n.file ?? "" } : n])),
    texts: new Map(Object.entries(raw.texts)),
  };
}
