// The structure rule every PUT and POST passes (issue 8): a write leaves every passage where the
// document's own citation scheme finds it, with the same element kind at each level, in the TEI
// namespace; a new citation value holds no delimiter, no path-like segment and no control
// character. The index knows units by offsets only, so element kinds are read from start tags.

import type { CitedText } from "../../builder/citation/cited-text.js";
import type { DocIndex } from "../../builder/citation/indexer.js";
import { DtsError } from "../../builder/error.js";
import { TEI_NS } from "../../builder/wire.js";
import { decodeEntities } from "../../builder/xml/scan.js";
import { type FragmentBody, placeInBody } from "./body.js";

/** An element's kind: its namespace and local name. */
export interface Kind {
  uri: string;
  local: string;
}

const sameKind = (a: Kind, b: Kind): boolean => a.uri === b.uri && a.local === b.local;
const show = (k: Kind): string => `<${k.local}>${k.uri === TEI_NS ? "" : ` in ${k.uri ? `the namespace ${k.uri}` : "no namespace"}`}`;

/** Namespace bindings in force at an element of the source (prefix -> URI; "" the default). */
export function sourceContext(index: DocIndex, element: number): Map<string, string> {
  const chain: number[] = [];
  for (let e = element; e >= 0; e = index.elements[e].parent) chain.push(e);
  const out = new Map<string, string>();
  for (const e of chain.reverse()) {
    for (const decl of index.elements[e].ns) {
      const eq = decl.indexOf("=");
      const name = decl.slice(0, eq);
      out.set(name === "xmlns" ? "" : name.slice(6), decodeEntities(decl.slice(eq + 2, -1)));
    }
  }
  return out;
}

/** The kind of the element of a unit, read from its start tag. */
export function unitKind(text: CitedText, u: number): Kind {
  const el = text.index.elements[text.units[u].element];
  let i = el.start + 1;
  const s = text.source;
  while (i < el.startEnd && s[i] !== 0x20 && s[i] !== 0x09 && s[i] !== 0x0a && s[i] !== 0x0d && s[i] !== 0x3e && s[i] !== 0x2f) i++;
  const qname = new TextDecoder().decode(s.subarray(el.start + 1, i));
  const colon = qname.indexOf(":");
  const prefix = colon < 0 ? "" : qname.slice(0, colon);
  return { uri: sourceContext(text.index, text.units[u].element).get(prefix) ?? "", local: qname.slice(colon + 1) };
}

/**
 * Before splicing: each submitted element is in the TEI namespace and of a kind the level has
 * (PUT: the kind of the passage it replaces). Refused with 400 naming the element and where.
 */
export function checkKinds(fb: FragmentBody, allowed: Kind[], level: string, docs: string): void {
  for (const e of fb.elements) {
    const where = placeInBody(fb.body, e.start);
    if (e.tag.uri !== TEI_NS) {
      throw new DtsError(
        400,
        `The submitted ${show(e.tag)} (${where} of the body) is not in the TEI namespace (${TEI_NS}): it would leave TEI and no longer be cited as ${level}. See ${docs}#structure.`,
      );
    }
    if (!allowed.some((k) => sameKind(k, e.tag))) {
      throw new DtsError(
        400,
        `The submitted ${show(e.tag)} (${where} of the body) would not be a citable passage at the level of ${level}: passages there are ${allowed.map(show).join(" or ")}. ` +
          `A write keeps each level's element kind. See ${docs}#structure.`,
      );
    }
  }
}

/**
 * After splicing: inside each submitted element, an element of its own kind must be a passage
 * of a deeper level (an <l> inside an <l> is cited by nothing and breaks the structure).
 * `placed` gives each submitted element's offset in the new source.
 */
export function checkNested(
  fb: FragmentBody,
  next: DocIndex,
  placed: (item: FragmentBody["elements"][number]) => number,
  docs: string,
): void {
  const starts = new Set(next.units.map((u) => u.start));
  for (const e of fb.elements) {
    for (const inner of e.sameKind) {
      if (starts.has(placed(e) + inner.start - e.start)) continue;
      throw new DtsError(
        400,
        `The submitted <${e.tag.qname}> holds another <${inner.qname}> inside it (${placeInBody(fb.body, inner.start)} of the body) that the document's citation scheme would not cite: a passage may not nest an element of its own kind. See ${docs}#structure.`,
      );
    }
  }
}

/**
 * Why a new citation value cannot be used, or null: it may not hold the level's delimiter or
 * ".", path-like segments ("/", "\", ".."), control characters or surrounding spaces.
 */
export function valueProblem(value: string, delim: string): string | null {
  if (value.trim() !== value || value === "") return "it is empty or has spaces around it";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return "it holds a control character (a line feed, a tab...)";
  if (/[/\\]/.test(value) || value.includes("..")) return `it holds a path-like segment ("/", "\\" or "..")`;
  if (value.includes(".") || (delim && value.includes(delim))) {
    return `it holds the delimiter "${delim || "."}" between citation levels, so the reference would read as ${value.split(delim || ".").length} levels`;
  }
  return null;
}
