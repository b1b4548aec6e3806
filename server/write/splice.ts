// The edits themselves: each write is a splice of the source bytes at a unit's offsets, so
// everything outside the changed passage keeps its bytes (and `git diff` shows only the
// change). The new source is indexed again before anything is written, and the write is
// refused unless the citation structure is exactly the old one with the intended change.

import type { CitedText } from "../../builder/citation/cited-text.js";
import { type DocIndex, type IndexProblem, indexDocument, type Unit, XmlSyntaxError } from "../../builder/citation/indexer.js";
import { DtsError } from "../../builder/error.js";
import { select } from "../../builder/render/selection.js";
import { TEI_NS } from "../../builder/wire.js";
import { decodeEntities, lineColumn } from "../../builder/xml/scan.js";
import { type FragmentBody, lineOf, placeInBody } from "./body.js";
import { checkKinds, checkNested, type Kind, sourceContext, unitKind, valueProblem } from "./structure.js";

export interface Indexed {
  source: Uint8Array;
  index: DocIndex;
  problems: IndexProblem[];
}

export interface Plan {
  /** The new source of the document and its index. */
  next: Indexed;
  /** What to answer with: the units of the new text (PUT, POST) or the old one (DELETE). */
  answer: { ref?: string; start?: string; end?: string };
  /** Where submitted bytes landed in the new source, and where they came from in the body (to place schema errors). */
  region?: { start: number; end: number; bodyStart: number };
  /** Passages touched, for the log and the response headers. */
  summary: string;
}

export interface PlanOptions {
  /** Refuse PUT above the lowest citation level (the spec allows the restriction). */
  putLowestOnly?: boolean;
  /** The page that documents the write API's rules (given in errors that name a restriction). */
  docs: string;
}

/** A Buffer, not a plain Uint8Array: the scanner's byte searches are many times faster on one. */
function concat(parts: Uint8Array[]): Buffer {
  return Buffer.concat(parts);
}

/** Indexes a new source; a source that no longer parses is a 422 that says where. */
function reindex(source: Uint8Array, region?: Plan["region"], body?: Uint8Array): Indexed {
  try {
    return { source, ...indexDocument(source) };
  } catch (e) {
    if (!(e instanceof XmlSyntaxError)) throw e;
    throw new DtsError(
      422,
      `With the change, the document would not be well-formed XML: ${placeInDocument(source, e.offset, region, body)}: ${e.reason}.`,
    );
  }
}

/** "line L of the document (line M of the body)" for an offset of the new source. */
export function placeInDocument(source: Uint8Array, offset: number, region?: Plan["region"], body?: Uint8Array): string {
  const { line, column } = lineColumn(source, offset);
  return `line ${line}, column ${column} of the resulting document${bodyLine(source, line, region, body)}`;
}

/** " (line M of the submitted body)" when a line of the new source came from the body. */
export function bodyLine(source: Uint8Array, line: number, region?: Plan["region"], body?: Uint8Array): string {
  if (!region || !body) return "";
  const first = lineOf(source, region.start);
  const last = lineOf(source, region.end);
  if (line < first || line > last) return "";
  return ` (line ${line - first + lineOf(body, region.bodyStart)} of the submitted body)`;
}

/**
 * The submitted elements are spliced as written, so every prefix they use without declaring
 * it (the default namespace included) must mean in the document what it means in the body.
 */
function checkNamespaces(old: CitedText, parentElement: number, fb: FragmentBody, docs: string): void {
  const here = parentElement >= 0 ? sourceContext(old.index, parentElement) : new Map<string, string>();
  for (const prefix of fb.free) {
    const inBody = fb.context.get(prefix) ?? "";
    const inDoc = here.get(prefix) ?? "";
    if (inBody === inDoc) continue;
    const name = prefix === "" ? "the default namespace" : `the prefix "${prefix}:"`;
    let hint = "";
    if (prefix === "" && inBody === TEI_NS) {
      const teiPrefix = [...here].find(([p, u]) => u === TEI_NS && p !== "")?.[0];
      hint = teiPrefix
        ? ` The document writes TEI elements with the prefix "${teiPrefix}:": submit them the same way (<${teiPrefix}:l>, with xmlns:${teiPrefix}="${TEI_NS}" on the body's TEI root).`
        : "";
    } else if (!inDoc) {
      hint = ` Declare it on the submitted element itself.`;
    }
    throw new DtsError(
      422,
      `The submitted elements are copied into the document as written, and ${name} means ${inBody || "no namespace"} in the body but ${inDoc || "no namespace"} in the document at that place.${hint} See ${docs}#namespaces.`,
    );
  }
}

/** Whitespace run just before an offset (the indentation a passage's siblings share). */
function whitespaceBefore(source: Uint8Array, offset: number): number {
  let i = offset;
  while (i > 0) {
    const c = source[i - 1];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i--;
  }
  return i;
}

/** Refs with levels and parents, to compare two structures. */
function shape(
  index: DocIndex,
  skip?: (u: Unit, i: number) => boolean,
): { ref: string; level: number; parent: string; citeType: string }[] {
  const out: { ref: string; level: number; parent: string; citeType: string }[] = [];
  index.units.forEach((u, i) => {
    if (skip?.(u, i)) return;
    out.push({ ref: u.ref, level: u.level, parent: u.parent >= 0 ? index.units[u.parent].ref : "", citeType: u.citeType });
  });
  return out;
}

/** The first difference between the expected and the actual structure, in words, or null. */
function firstDifference(expected: ReturnType<typeof shape>, actual: ReturnType<typeof shape>): string | null {
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const a = actual[i];
    if (e && a && e.ref === a.ref && e.level === a.level && e.parent === a.parent) continue;
    const expectedRefs = new Set(expected.map((x) => x.ref));
    const actualRefs = new Set(actual.map((x) => x.ref));
    if (e && !actualRefs.has(e.ref)) return `the passage "${e.ref}" (${e.citeType}, level ${e.level}) would be missing`;
    if (a && !expectedRefs.has(a.ref))
      return `a passage "${a.ref}" (${a.citeType}, level ${a.level}) would appear that should not be there`;
    if (e && a) return `"${a.ref}" (level ${a.level}) would come where "${e.ref}" (level ${e.level}) is expected`;
    return e ? `the passage "${e.ref}" would be missing` : `an extra passage "${a!.ref}" would appear`;
  }
  return null;
}

// ---- PUT ----------------------------------------------------------------------------------

export function planPut(old: CitedText, ref: string, fb: FragmentBody, options: PlanOptions): Plan {
  const u = old.find(ref);
  if (u === undefined) {
    throw new DtsError(
      404,
      `The document "${old.id}" has no passage with the reference ref="${ref}": PUT only replaces an existing passage. Create it first with POST (after or before a neighbouring passage).`,
    );
  }
  const unit = old.units[u];
  if (fb.elements.length !== 1) {
    throw new DtsError(
      400,
      fb.elements.length === 0
        ? 'dts:fragment holds no element: PUT replaces the passage with exactly one element (to empty a passage, send the element with no content, e.g. <l n="5"/>).'
        : `dts:fragment holds ${fb.elements.length} elements: PUT replaces one passage with exactly one element (the passage's own, such as <${fb.elements[0].tag.qname}>). To add passages, use POST with after or before.`,
    );
  }
  const children = old.unitsAt(unit.level + 1, u);
  if (options.putLowestOnly && children.length > 0) {
    throw new DtsError(
      422,
      `This server accepts PUT only on passages of the lowest citation level, and "${ref}" (${unit.citeType}) holds ${children.length} passage(s) of level ${unit.level + 1}: replace those one by one. See ${options.docs}#put-lowest-only.`,
    );
  }
  const element = fb.elements[0];
  checkNamespaces(old, old.index.elements[unit.element].parent, fb, options.docs);
  checkKinds(fb, [unitKind(old, u)], `"${ref}" (${unit.citeType}, level ${unit.level})`, options.docs);
  const bytes = fb.body.subarray(element.start, element.end);
  const source = concat([old.source.subarray(0, unit.start), bytes, old.source.subarray(unit.end)]);
  const region = { start: unit.start, end: unit.start + bytes.length, bodyStart: element.start };
  const next = reindex(source, region, fb.body);
  checkNested(fb, next.index, () => unit.start, options.docs);

  const before = shape(old.index);
  const after = shape(next.index);
  const same = firstDifference(before, after);
  if (same !== null) {
    const replaced = next.index.units.find((x) => x.start === unit.start);
    let why: string;
    if (!replaced) {
      why = `the submitted <${element.tag.qname}> would not be the citable passage "${ref}" (check the attribute that carries its reference, such as @n)`;
    } else if (replaced.ref !== ref) {
      why = `the submitted element would be cited as "${replaced.ref}", not "${ref}": PUT keeps a passage's reference; to renumber, DELETE the passage and POST the new one`;
    } else {
      why = `the submitted element must hold the same nested passages as the stored one, in the same order: ${same}`;
    }
    throw new DtsError(400, `PUT ref="${ref}" cannot be applied: ${why}.`);
  }
  return { next, answer: { ref }, region, summary: `replaced ${ref}` };
}

// ---- POST after/before --------------------------------------------------------------------

/** The attribute of a unit's start tag that gives the last part of its reference, and the delimiter before it. */
function referenceAttribute(old: CitedText, u: number): { name: string; delim: string; parentRef: string } | null {
  const unit = old.units[u];
  const el = old.index.elements[unit.element];
  const startTag = new TextDecoder().decode(old.source.subarray(el.start, el.startEnd));
  const parentRef = unit.parent >= 0 ? old.units[unit.parent].ref : "";
  const found: { name: string; delim: string }[] = [];
  for (const m of startTag.matchAll(/([^\s=<>/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const name = m[1];
    if (name === "xmlns" || name.startsWith("xmlns:")) continue;
    const value = decodeEntities(m[2] ?? m[3] ?? "").trim();
    if (!value || !unit.ref.endsWith(value) || !unit.ref.startsWith(parentRef)) continue;
    const delimLength = unit.ref.length - parentRef.length - value.length;
    if (delimLength < 0 || (parentRef === "" && delimLength !== 0)) continue;
    found.push({ name, delim: unit.ref.slice(parentRef.length, parentRef.length + delimLength) });
  }
  const pick = found.find((f) => f.name === "n") ?? found[0];
  return pick ? { ...pick, parentRef } : null;
}

/** The element kinds of a unit and its siblings (a level may mix, say, <l> and <p>). */
function levelKinds(old: CitedText, t: number): Kind[] {
  const target = old.units[t];
  const kinds: Kind[] = [];
  for (const i of old.levels[target.level]) {
    if (old.units[i].parent !== target.parent) continue;
    const k = unitKind(old, i);
    if (!kinds.some((x) => x.uri === k.uri && x.local === k.local)) kinds.push(k);
  }
  return kinds;
}

export function planInsert(old: CitedText, where: "after" | "before", ref: string, fb: FragmentBody, options: PlanOptions): Plan {
  const t = old.find(ref);
  if (t === undefined) {
    throw new DtsError(
      404,
      `The document "${old.id}" has no passage with the reference ${where}="${ref}": the new passage is placed ${where} an existing one, so ${where} must name a passage of the document.`,
    );
  }
  if (fb.elements.length === 0)
    throw new DtsError(400, "dts:fragment holds no element: POST expects the new passage element(s) inside it.");
  const target = old.units[t];
  checkNamespaces(old, old.index.elements[target.element].parent, fb, options.docs);
  checkKinds(fb, levelKinds(old, t), `"${ref}" (${target.citeType}, level ${target.level})`, options.docs);

  // Duplicates, predicted from the attribute that carries the target's own reference.
  const attr = referenceAttribute(old, t);
  const predicted: string[] = [];
  if (attr) {
    for (const e of fb.elements) {
      const value = e.tag.attributes.find((a) => a.name === attr.name)?.value;
      if (value === undefined) {
        throw new DtsError(
          400,
          `The new <${e.tag.qname}> (line ${lineOf(fb.body, e.start)} of the body) has no @${attr.name}: passages at the level of "${ref}" (${target.citeType}) take their reference from @${attr.name}.`,
        );
      }
      const problem = valueProblem(value, attr.delim);
      if (problem) {
        throw new DtsError(
          400,
          `The new <${e.tag.qname}> (${placeInBody(fb.body, e.start)} of the body) has @${attr.name}=${JSON.stringify(value)}, which cannot be a reference: ${problem}. See ${options.docs}#structure.`,
        );
      }
      const newRef = attr.parentRef + attr.delim + value;
      if (old.find(newRef) !== undefined || predicted.includes(newRef)) {
        throw new DtsError(
          409,
          `A duplicate segment would result: the document "${old.id}" already has a passage "${newRef}"${predicted.includes(newRef) ? " (given twice in the body)" : ""}. POST never changes an existing passage: use PUT to replace it.`,
        );
      }
      predicted.push(newRef);
    }
  }

  // The new siblings take the indentation of the target's.
  const wsStart = whitespaceBefore(old.source, target.start);
  const sep = old.source.subarray(wsStart, target.start);
  const pieces: Uint8Array[] = [];
  const at = where === "after" ? target.end : target.start;
  let offset = at;
  let regionStart = -1;
  const items = fb.items;
  const placed = new Map<FragmentBody["items"][number], number>();
  items.forEach((item, i) => {
    if (where === "after" || i > 0) {
      pieces.push(sep);
      offset += sep.length;
    }
    if (regionStart < 0) regionStart = offset;
    placed.set(item, offset);
    const bytes = fb.body.subarray(item.start, item.end);
    pieces.push(bytes);
    offset += bytes.length;
  });
  if (where === "before") {
    pieces.push(sep);
  }
  const regionEnd = offset;
  const source = concat([old.source.subarray(0, at), ...pieces, old.source.subarray(at)]);
  const region = { start: regionStart, end: regionEnd, bodyStart: items[0].start };
  const next = reindex(source, region, fb.body);
  checkNested(fb, next.index, (e) => placed.get(e)!, options.docs);

  const inside = (u: Unit): boolean => u.start >= regionStart && u.start < regionEnd;
  const added = next.index.units.map((_u, i) => i).filter((i) => inside(next.index.units[i]));
  // A unit of the body that took the place of an existing reference (inserted before it).
  for (const i of added) {
    const u = next.index.units[i];
    if (old.find(u.ref) !== undefined) {
      throw new DtsError(
        409,
        `A duplicate segment would result: the document "${old.id}" already has a passage "${u.ref}". POST never changes an existing passage: use PUT to replace it.`,
      );
    }
  }
  const rest = shape(next.index, (u) => inside(u));
  const difference = firstDifference(shape(old.index), rest);
  if (difference !== null) {
    throw new DtsError(
      422,
      `With the new passage(s), the rest of the document's citation structure would change: ${difference}. Check the elements submitted.`,
    );
  }
  const parentRef = target.parent >= 0 ? old.units[target.parent].ref : "";
  const tops = added.filter((i) => !added.includes(next.index.units[i].parent));
  const topRefs = tops.map((i) => next.index.units[i].ref);
  for (const e of fb.elements) {
    const start = placed.get(e)!;
    const unit = next.index.units.find((u) => u.start === start);
    const line = lineOf(fb.body, e.start);
    if (!unit) {
      throw new DtsError(
        400,
        `The new <${e.tag.qname}> (line ${line} of the body) would not be a citable passage at the level of "${ref}" (${target.citeType}, level ${target.level}): ` +
          `check its name and the attribute that carries its reference, and that it matches the document's citation structure.`,
      );
    }
    const parent = unit.parent >= 0 ? next.index.units[unit.parent].ref : "";
    if (unit.level !== target.level || parent !== parentRef) {
      throw new DtsError(
        400,
        `The new <${e.tag.qname}> (line ${line} of the body) would be cited as "${unit.ref}" (level ${unit.level}), not as a sibling of "${ref}" (level ${target.level}${parentRef ? `, inside "${parentRef}"` : ""}).`,
      );
    }
  }
  if (topRefs.length !== fb.elements.length) {
    throw new DtsError(
      400,
      `The body's ${fb.elements.length} element(s) would give ${topRefs.length} passage(s) at the level of "${ref}": each element must be one passage.`,
    );
  }
  const answer = topRefs.length === 1 ? { ref: topRefs[0] } : { start: topRefs[0], end: topRefs[topRefs.length - 1] };
  return { next, answer, region, summary: `inserted ${topRefs.join(", ")} ${where} ${ref}` };
}

// ---- DELETE -------------------------------------------------------------------------------

export function planDelete(old: CitedText, p: { ref?: string; start?: string; end?: string }): Plan {
  const s = select(old, p);
  if (s instanceof DtsError) throw s;
  const list = old.levels[s.level];
  const a = old.positionOf(s.first);
  const b = old.positionOf(s.last);
  const doomed = list.slice(a, b + 1);
  // Contiguous runs of siblings: each is cut from its first unit's start to its last's end,
  // with the whitespace before it, so no blank line is left.
  const cuts: [number, number][] = [];
  let runStart = doomed[0];
  let runEnd = doomed[0];
  for (let i = 1; i <= doomed.length; i++) {
    const u = doomed[i];
    if (u !== undefined && old.units[u].parent === old.units[runStart].parent) {
      runEnd = u;
      continue;
    }
    cuts.push([whitespaceBefore(old.source, old.units[runStart].start), old.units[runEnd].end]);
    if (u !== undefined) runStart = runEnd = u;
  }
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const [x, y] of cuts) {
    parts.push(old.source.subarray(from, x));
    from = y;
  }
  parts.push(old.source.subarray(from));
  const source = concat(parts);
  const next = reindex(source);
  const removed = (u: Unit): boolean => cuts.some(([x, y]) => u.start >= x && u.start < y);
  const difference = firstDifference(
    shape(old.index, (u) => removed(u)),
    shape(next.index),
  );
  if (difference !== null) {
    throw new DtsError(422, `Removing the passage(s) would change the rest of the document's citation structure: ${difference}.`);
  }
  const answer = p.ref !== undefined ? { ref: p.ref } : { start: p.start, end: p.end };
  const names = doomed.map((u) => old.units[u].ref);
  return {
    next,
    answer,
    summary: `deleted ${names.length === 1 ? names[0] : `${names[0]}..${names[names.length - 1]} (${names.length})`}`,
  };
}

// ---- POST, initial form -------------------------------------------------------------------

export function planCreate(body: Uint8Array): Indexed {
  return reindex(body);
}
