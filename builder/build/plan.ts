// How a document's part of the tree is brought up to date, decided in one place for `dts
// build`, `dts watch` and the write API: kept as it is, only its changed passages rewritten, or
// every response rendered again. Pure: the caller gathers the facts (the I/O) and carries the
// plan out; the reason goes into the build report.

import type { DocIndex } from "../citation/indexer.js";

export type RewriteMode = "unchanged" | "passages" | "document";

export type PlanReason =
  /** A full build renders everything. */
  | "full build"
  /** The source is the one the tree was built from (same hash, same settings). */
  | "source unchanged"
  /** Same citation structure: only passages whose bytes changed, the whole document and the index. */
  | "passages changed"
  /** The source file cannot be read now: the document is served without text. */
  | "source missing"
  /** No build record: the document is new to the tree. */
  | "new document"
  /** The tree holds the document without text (no file, or not well-formed before). */
  | "had no text"
  /** The tree's copy of the source or its index is missing or not the one the record names. */
  | "earlier output unusable"
  /** The source is not well-formed now: the document is served as unreadable. */
  | "not well-formed"
  /** References, levels, elements or declarations differ: every Link and navigation may change. */
  | "citation structure changed";

export interface DocumentPlan {
  mode: RewriteMode;
  reason: PlanReason;
}

/** What the plan is decided from. */
export interface PlanFacts {
  /** Hash of the source now (see sourceHash); "" when it cannot be read. */
  hash: string;
  /** The build record in the tree, or null when there is none. */
  record: { hash: string; hasText: boolean } | null;
  /**
   * Needed only when the hash differs from the record's (the gatherer reads no more):
   * the index the tree was built from, when its source is the one the record names, and the
   * index of the source now, null when it is not well-formed.
   */
  oldIndex?: DocIndex | null;
  newIndex?: DocIndex | null;
}

export function planDocument(f: PlanFacts): DocumentPlan {
  if (f.record && f.record.hash === f.hash) return { mode: "unchanged", reason: "source unchanged" };
  const document = (reason: PlanReason): DocumentPlan => ({ mode: "document", reason });
  if (!f.hash) return document("source missing");
  if (!f.record) return document("new document");
  if (!f.record.hasText) return document("had no text");
  if (!f.oldIndex) return document("earlier output unusable");
  if (!f.newIndex) return document("not well-formed");
  if (!sameStructure(f.oldIndex, f.newIndex)) return document("citation structure changed");
  return { mode: "passages", reason: "passages changed" };
}

/** Same units (reference, level, parent, citeType, element), same ancestors and namespaces, same declarations. */
export function sameStructure(a: DocIndex, b: DocIndex): boolean {
  if (a.scheme !== b.scheme || a.maxCiteDepth !== b.maxCiteDepth || a.doctype !== b.doctype) return false;
  if (JSON.stringify(a.citeStructure) !== JSON.stringify(b.citeStructure)) return false;
  if (a.units.length !== b.units.length || a.elements.length !== b.elements.length) return false;
  for (let i = 0; i < a.units.length; i++) {
    const x = a.units[i];
    const y = b.units[i];
    if (x.ref !== y.ref || x.level !== y.level || x.parent !== y.parent || x.element !== y.element || x.citeType !== y.citeType)
      return false;
  }
  for (let i = 0; i < a.elements.length; i++) {
    const x = a.elements[i];
    const y = b.elements[i];
    if (x.parent !== y.parent || x.ns.join(" ") !== y.ns.join(" ")) return false;
  }
  return true;
}
