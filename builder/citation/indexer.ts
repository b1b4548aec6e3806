// The citation index of one document: one pass over the source yields its citable units in
// document order, each with its level, reference, citeType, parent and exact byte offsets,
// plus the start and end tags of their ancestors, so that any passage or range can be cut
// from the source bytes without re-serialising anything.

import { attr, lineColumn, type OpenTag, scanXml, XmlSyntaxError } from "../xml/scan.js";
import {
  type CitationScheme,
  type CiteNode,
  type CiteStructureJson,
  DeclarationCollector,
  declaredCiteStructure,
  fallbackScheme,
  type NamedScheme,
  readTrees,
} from "./scheme.js";
import { pathMatches } from "./xpath.js";

export interface Unit {
  ref: string;
  /** 1 for the top level. */
  level: number;
  /** Index of the parent unit, or -1 at the top level. */
  parent: number;
  /** Index of the unit's own element in `elements`. */
  element: number;
  /** Byte offsets of the unit's element in the source: [start, end). */
  start: number;
  end: number;
  citeType: string;
}

/** An element that is a unit or an ancestor of one. */
export interface IndexedElement {
  /** Start tag: [start, startEnd). */
  start: number;
  startEnd: number;
  /** End tag: [closeStart, closeEnd) (empty for a self-closing element). */
  closeStart: number;
  closeEnd: number;
  /** Index of the parent element in `elements`, or -1 for the root. */
  parent: number;
  /** Namespace declarations on this element, as written (`xmlns:xi="..."`). */
  ns: string[];
}

export interface DocIndex {
  scheme: CitationScheme["kind"];
  maxCiteDepth: number;
  citeStructure: CiteStructureJson[];
  units: Unit[];
  elements: IndexedElement[];
  /** The DOCTYPE declaration as written, when it has an internal subset (entities). */
  doctype?: string;
  /** Byte length of the source. */
  length: number;
  /** The document's other citation trees (refsDecl[@n]); absent when it has only the default. */
  trees?: NamedTree[];
}

/** A citation tree other than the default: its full index over the same source. */
export interface NamedTree {
  identifier: string;
  index: DocIndex;
}

export interface IndexOptions {
  /** Index this tree instead of the declared default; the result then has no `trees`. */
  scheme?: CitationScheme;
}

export interface IndexProblem {
  line?: number;
  column?: number;
  message: string;
}

export interface IndexResult {
  index: DocIndex;
  problems: IndexProblem[];
}

interface OpenUnit {
  node: CiteNode;
  ref: string;
  /** Index in `units`, or -1 for a duplicate reference (kept only to resolve its children). */
  unit: number;
  /** Depth of its element in the element stack. */
  depth: number;
}

const decoder = new TextDecoder();

/** Indexes a TEI document. Throws XmlSyntaxError when the source is not well-formed. */
export function indexDocument(source: Uint8Array, options: IndexOptions = {}): IndexResult {
  const problems: IndexProblem[] = [];
  const at = (offset: number, message: string): void => {
    problems.push({ ...lineColumn(source, offset), message });
  };
  const collector = new DeclarationCollector();
  let inHeader = false;
  let scheme: CitationScheme | null = null;
  let others: NamedScheme[] = [];
  let doctype: string | undefined;

  const tags: OpenTag[] = [];
  /** Index in `elements` of each open element, or -1 while it is not registered. */
  const registered: number[] = [];
  const elements: IndexedElement[] = [];
  const units: Unit[] = [];
  const byRef = new Map<string, number>();
  const open: OpenUnit[] = [];
  const duplicates = new Map<string, number>();
  let emptyValues = 0;

  const register = (depth: number): number => {
    if (registered[depth] >= 0) return registered[depth];
    const parent = depth > 0 ? register(depth - 1) : -1;
    const tag = tags[depth];
    const ns: string[] = [];
    for (const a of tag.attributes) {
      if (a.name === "xmlns" || a.name.startsWith("xmlns:")) ns.push(`${a.name}="${escapeAttr(a.value)}"`);
    }
    elements.push({ start: tag.start, startEnd: tag.startEnd, closeStart: -1, closeEnd: -1, parent, ns });
    registered[depth] = elements.length - 1;
    return registered[depth];
  };

  const tryUnit = (tag: OpenTag, depth: number): void => {
    const context = open[open.length - 1];
    const candidates = context ? context.node.children : scheme!.roots;
    for (const node of candidates) {
      const from = node.absolute ? -1 : context!.depth;
      if (!pathMatches(node.steps, tags, from, depth)) continue;
      const value = attr(tag, node.valueAttribute)?.trim();
      if (!value) {
        emptyValues++;
        if (emptyValues <= 5) at(tag.start, `<${tag.qname}> has an empty or missing @${node.valueAttribute}; not citable`);
        return;
      }
      const ref = context ? context.ref + node.delim + value : value;
      const citeType = node.typeFromElement ? (attr(tag, "subtype") ?? attr(tag, "type") ?? elementType(tag.local)) : node.citeType;
      // Below a duplicate, units stay unregistered too: they would repeat the first's children.
      if (context?.unit === -1) {
        open.push({ node, ref, unit: -1, depth });
        return;
      }
      if (byRef.has(ref)) {
        duplicates.set(ref, (duplicates.get(ref) ?? 0) + 1);
        if (duplicates.size <= 5 && duplicates.get(ref) === 1) {
          at(
            tag.start,
            `duplicate reference "${ref}": the first occurrence is the one served; this one and the units inside it are not citable on their own`,
          );
        }
        open.push({ node, ref, unit: -1, depth });
        return;
      }
      const element = register(depth);
      units.push({
        ref,
        level: open.length + 1,
        parent: context ? context.unit : -1,
        element,
        start: tag.start,
        end: -1,
        citeType,
      });
      byRef.set(ref, units.length - 1);
      open.push({ node, ref, unit: units.length - 1, depth });
      return;
    }
  };

  scanXml(source, {
    doctype(start, end) {
      const text = decoder.decode(source.subarray(start, end));
      if (text.includes("[")) {
        doctype = text;
        // Said once, by the default tree's pass.
        if (!options.scheme) at(start, "DOCTYPE with an internal subset: passages repeat it so that entities still resolve");
      }
    },
    open(tag, depth) {
      tags[depth] = tag;
      registered[depth] = -1;
      if (tag.local === "teiHeader") inHeader = true;
      if (inHeader) {
        collector.open(tag);
        return;
      }
      if (!scheme && depth > 0) {
        const choice = options.scheme ? { scheme: options.scheme, others: [], skipped: [] } : readTrees(collector.raw);
        scheme = choice.scheme;
        others = choice.others;
        for (const p of scheme.problems) {
          if (scheme.offset === undefined) problems.push({ message: p });
          else at(scheme.offset, p);
        }
        for (const s of choice.skipped) at(s.offset, s.message);
      }
      if (scheme) tryUnit(tag, depth);
    },
    close(tag, start, end, depth) {
      if (inHeader) {
        collector.close(tag);
        if (tag.local === "teiHeader") inHeader = false;
        return;
      }
      const top = open[open.length - 1];
      if (top && top.depth === depth) {
        if (top.unit >= 0) units[top.unit].end = end;
        open.pop();
      }
      const index = registered[depth];
      if (index >= 0) {
        elements[index].closeStart = start;
        elements[index].closeEnd = end;
      }
    },
  });

  scheme ??= options.scheme ?? fallbackScheme();
  if (duplicates.size > 5) {
    problems.push({ message: `${duplicates.size} duplicate references in all (first occurrence served)` });
  }
  if (emptyValues > 5) problems.push({ message: `${emptyValues} elements with an empty citation value in all` });
  if (units.length === 0) {
    problems.push({
      message:
        scheme.kind === "fallback"
          ? "no citable div, l or p with @n found: the document has no passages"
          : `the ${scheme.kind === "cts" ? "cRefPattern" : "citeStructure"} declaration matches nothing: the ${options.scheme ? "tree" : "document"} has no passages`,
    });
  }
  const observedDepth = units.reduce((m, u) => Math.max(m, u.level), 0);
  const trees = others.map((t) => otherTree(source, t, problems));
  return {
    index: {
      scheme: scheme.kind,
      maxCiteDepth: scheme.kind === "fallback" ? observedDepth : Math.max(scheme.declaredDepth, observedDepth),
      citeStructure: scheme.kind === "fallback" ? observedCiteStructure(units) : declaredCiteStructure(scheme),
      units,
      elements,
      doctype,
      length: source.length,
      // Only when there are some, so that the index of an ordinary document is as before.
      ...(trees.length ? { trees } : {}),
    },
    problems,
  };
}

/** Indexes one more tree of the document in its own pass; its problems say which tree. */
function otherTree(source: Uint8Array, tree: NamedScheme, problems: IndexProblem[]): NamedTree {
  const result = indexDocument(source, { scheme: tree.scheme });
  for (const p of result.problems) problems.push({ ...p, message: `tree "${tree.identifier}": ${p.message}` });
  return { identifier: tree.identifier, index: result.index };
}

export { XmlSyntaxError };

function elementType(local: string): string {
  return local === "l" ? "line" : local === "p" ? "paragraph" : "section";
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** The citation tree as found: each distinct path of citeTypes, in order of first appearance. */
function observedCiteStructure(units: Unit[]): CiteStructureJson[] {
  const roots: CiteStructureJson[] = [];
  const nodeOf: CiteStructureJson[] = [];
  units.forEach((u, i) => {
    const siblings = u.parent < 0 ? roots : (nodeOf[u.parent].citeStructure ??= []);
    let node = siblings.find((s) => s.citeType === u.citeType);
    if (!node) {
      node = { citeType: u.citeType };
      siblings.push(node);
    }
    nodeOf[i] = node;
  });
  return roots;
}
