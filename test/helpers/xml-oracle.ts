// The real-corpora suite's oracle: a small XML reader of its own (elements with their exact
// offsets in the source string) and what it expects of a document from it: the citable units
// of each declared level, the levels a CTS refsDecl declares, the citeStructure of a chain of
// citeTypes. It shares no code with the builder, so the two can disagree.

import { readFileSync } from "node:fs";

export interface El {
  name: string;
  local: string;
  attrs: Record<string, string>;
  /** Offsets in the source string: start tag [start, startEnd), end tag [closeStart, end). */
  start: number;
  startEnd: number;
  closeStart: number;
  end: number;
  parent: El | null;
  children: El[];
}

export interface Doc {
  src: string;
  root: El;
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e[0] === "#") return String.fromCodePoint(e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[e]!;
  });
}

export function parseXml(src: string): Doc {
  const stack: El[] = [];
  let root: El | null = null;
  let expectedLt = src.indexOf("<");
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(src); m; m = TOKEN.exec(src)) {
    if (m.index !== expectedLt) throw new Error(`oracle: unreadable markup at offset ${expectedLt}`);
    const tokenEnd = m.index + m[0].length;
    expectedLt = src.indexOf("<", tokenEnd);
    if (m[1] !== undefined) {
      const el = stack.pop();
      if (!el || el.name !== m[1]) throw new Error(`oracle: </${m[1]}> does not close <${el?.name}>`);
      el.closeStart = m.index;
      el.end = tokenEnd;
    } else if (m[2] !== undefined) {
      const attrs: Record<string, string> = {};
      ATTR.lastIndex = 0;
      for (let a = ATTR.exec(m[3]); a; a = ATTR.exec(m[3])) attrs[a[1]] = decodeEntities(a[2] ?? a[3]);
      const parent = stack[stack.length - 1] ?? null;
      const el: El = {
        name: m[2],
        local: m[2].includes(":") ? m[2].slice(m[2].indexOf(":") + 1) : m[2],
        attrs,
        start: m.index,
        startEnd: tokenEnd,
        closeStart: tokenEnd,
        end: tokenEnd,
        parent,
        children: [],
      };
      if (parent) parent.children.push(el);
      else if (root) throw new Error("oracle: two root elements");
      else root = el;
      if (m[4] !== "/") stack.push(el);
    }
    if (expectedLt < 0) break;
  }
  if (!root || stack.length) throw new Error("oracle: not well-formed");
  return { src, root };
}

const docCache = new Map<string, Doc>();
export function readDoc(file: string): Doc {
  let d = docCache.get(file);
  if (!d) {
    d = parseXml(readFileSync(file, "utf8"));
    docCache.set(file, d);
  }
  return d;
}

export function outer(doc: Doc, el: El): string {
  return doc.src.slice(el.start, el.end);
}

export function descendants(el: El, out: El[] = []): El[] {
  for (const c of el.children) {
    out.push(c);
    descendants(c, out);
  }
  return out;
}

/** Text content (tags and comments removed, entities decoded, whitespace collapsed). */
export function textOf(src: string, el: El): string {
  const inner = src.slice(el.startEnd, el.closeStart);
  return decodeEntities(inner.replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

export function lineOf(src: string, offset: number): number {
  let line = 1;
  for (let i = src.indexOf("\n"); i >= 0 && i < offset; i = src.indexOf("\n", i + 1)) line++;
  return line;
}

/** The namespace URI of an element's prefix (or of the default namespace). */
export function nsOf(el: El): string {
  const prefix = el.name.includes(":") ? el.name.slice(0, el.name.indexOf(":")) : "";
  const key = prefix ? `xmlns:${prefix}` : "xmlns";
  for (let e: El | null = el; e; e = e.parent) if (key in e.attrs) return e.attrs[key];
  return "";
}

/**
 * A tiny path language for the oracle: steps separated by `/`, `//` for the descendant axis,
 * name tests `div`, `l|p`, `*`, predicates `[@n]` (attribute present) and `[@type='x']`.
 */
function findPath(context: El, path: string): El[] {
  let current = [context];
  let descendant = false;
  for (const part of path.split("/")) {
    if (part === "") {
      descendant = true;
      continue;
    }
    if (part === ".") continue;
    const m = /^([\w|*-]+)((?:\[[^\]]+\])*)$/.exec(part);
    if (!m) throw new Error(`oracle: bad step ${part}`);
    const names = m[1] === "*" ? null : m[1].split("|");
    const preds = [...m[2].matchAll(/\[@([\w:.-]+)(?:='([^']*)')?\]/g)].map((p) => ({ name: p[1], value: p[2] }));
    const next = new Set<El>();
    for (const c of current) {
      for (const e of descendant ? descendants(c) : c.children) {
        if (names && !names.includes(e.local)) continue;
        if (preds.every((p) => p.name in e.attrs && (p.value === undefined || e.attrs[p.name] === p.value))) next.add(e);
      }
    }
    current = [...next].sort((a, b) => a.start - b.start);
    descendant = false;
  }
  return current;
}

export interface Level {
  /** Path from the parent unit (from the root element `TEI` for level 1). */
  path: string;
  /** Attribute carrying the level's value; `n` by default. */
  attr?: string;
}

export interface ExpectedUnit {
  ref: string;
  level: number;
  el: El;
  /** A duplicate of an earlier reference, or inside one. */
  shadowed: boolean;
}

export interface Expected {
  units: ExpectedUnit[];
  /** Elements that match a level but carry an empty value. */
  empty: El[];
  /** Units whose reference repeats an earlier one (in document order). */
  duplicates: ExpectedUnit[];
}

/** The citable units of a document by the oracle: every level's elements, in document order. */
export function expectedUnits(doc: Doc, levels: Level[], delim = "."): Expected {
  const out: Expected = { units: [], empty: [], duplicates: [] };
  const seen = new Set<string>();
  const walk = (context: El, depth: number, prefix: string, shadowed: boolean): void => {
    if (depth >= levels.length) return;
    const level = levels[depth];
    for (const el of findPath(context, level.path)) {
      const value = (el.attrs[level.attr ?? "n"] ?? "").trim();
      if (!value) {
        out.empty.push(el);
        continue;
      }
      const ref = depth === 0 ? value : prefix + delim + value;
      const unit: ExpectedUnit = { ref, level: depth + 1, el, shadowed: shadowed || seen.has(ref) };
      if (seen.has(ref)) out.duplicates.push(unit);
      seen.add(ref);
      out.units.push(unit);
      walk(el, depth + 1, ref, unit.shadowed);
    }
  };
  walk(doc.root, 0, "", false);
  out.units.sort((a, b) => a.el.start - b.el.start);
  return out;
}

export const atLevel = (e: Expected, level: number): ExpectedUnit[] => e.units.filter((u) => u.level === level);
export const refsAt = (e: Expected, level: number): string[] => atLevel(e, level).map((u) => u.ref);

/** The levels the CTS refsDecl declares (`cRefPattern/@n`, ordered by the number of values). */
export function declaredCtsLevels(doc: Doc): string[] {
  const refsDecl = descendants(doc.root).find((e) => e.local === "refsDecl" && e.attrs.n === "CTS");
  if (!refsDecl) throw new Error("oracle: no refsDecl n=CTS");
  const groups = (pattern: string): number => {
    let n = 0;
    for (let i = 0; i < pattern.length; i++) {
      if (pattern[i] === "\\") i++;
      else if (pattern[i] === "(" && pattern[i + 1] !== "?") n++;
    }
    return n;
  };
  return refsDecl.children
    .filter((c) => c.local === "cRefPattern")
    .map((c) => ({ n: c.attrs.n, values: groups(c.attrs.matchPattern ?? "") }))
    .sort((a, b) => a.values - b.values)
    .map((c) => c.n);
}

/** Nested `citeStructure` JSON of a chain of citeTypes. */
export function citeChain(types: string[]): unknown[] {
  if (!types.length) return [];
  const [first, ...rest] = types;
  return [rest.length ? { citeType: first, citeStructure: citeChain(rest) } : { citeType: first }];
}
