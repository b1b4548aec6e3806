// Reading a Document answer: is it well-formed XML, is its root TEI, what does its passage
// wrapper hold; and whether a range holds exactly its units. Well-formedness is the project's
// own two checks: fast-xml-parser's validator (what the build reports) and the scanner the
// citation index is built on (tags, attributes, namespace prefixes), which also gives offsets.

import { wellFormednessError } from "../builder/metadata/xml.js";
import { scanXml, XmlSyntaxError } from "../builder/xml/scan.js";

export interface Name {
  ns: string;
  local: string;
}

export type XmlReading =
  | { ok: false; problem: string }
  | {
      ok: true;
      root: Name;
      /** The source text inside the first wrapper element, or null when there is none. */
      inner: string | null;
    };

export function readXml(text: string, wrapper: Name): XmlReading {
  const error = wellFormednessError(text);
  if (error) return { ok: false, problem: `line ${error.line}, column ${error.column}: ${error.message}` };
  const bytes = new TextEncoder().encode(text);
  let root: Name | undefined;
  let open: number | undefined;
  let inner: string | null = null;
  try {
    scanXml(bytes, {
      open(tag, depth) {
        if (depth === 0) root = { ns: tag.uri, local: tag.local };
        if (inner === null && open === undefined && tag.uri === wrapper.ns && tag.local === wrapper.local) {
          open = tag.selfClosing ? undefined : tag.startEnd;
          if (tag.selfClosing) inner = "";
        }
      },
      close(tag, start) {
        if (open !== undefined && inner === null && tag.uri === wrapper.ns && tag.local === wrapper.local) {
          inner = new TextDecoder().decode(bytes.subarray(open, start));
        }
      },
    });
  } catch (e) {
    if (e instanceof XmlSyntaxError) return { ok: false, problem: e.message };
    throw e;
  }
  return { ok: true, root: root!, inner };
}

/** Whitespace between tags dropped and other runs made one space: what a re-indenting server may change. */
export function normaliseSpace(xml: string): string {
  return xml.replace(/>\s+</g, "><").replace(/\s+/g, " ").trim();
}

/** What may lie between two units in a range: whitespace, comments, processing instructions, empty elements (milestones). */
const BETWEEN = /^(?:\s|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<[^/!?][^>]*\/>)*$/;

/**
 * Why `range` (a range's wrapper content) is not its `units` (each unit's wrapper content) one
 * after the other, or undefined when it is. Compared after `normaliseSpace`; between units
 * only what BETWEEN allows may lie. Ancestor tags that every unit and the range open first
 * (a server that wraps each passage in its parents) are set aside.
 */
export function rangeMismatch(range: string, units: string[]): string | undefined {
  const { range: r, units: us } = withoutSharedAncestors(normaliseSpace(range), units.map(normaliseSpace));
  let at = 0;
  for (const [i, unit] of us.entries()) {
    const found = unit === "" ? at : r.indexOf(unit, at);
    if (found < 0) return `unit ${i + 1} of ${us.length} is not in the range after ${at === 0 ? "its start" : `offset ${at}`}`;
    const gap = r.slice(at, found);
    if (i === 0 ? gap !== "" : !BETWEEN.test(gap)) {
      return i === 0
        ? `the range does not begin with the first unit (it begins ${JSON.stringify(excerpt(r))})`
        : `between units ${i} and ${i + 1} the range holds ${JSON.stringify(excerpt(gap))}, which is not in either`;
    }
    at = found + unit.length;
  }
  if (at !== r.length) return `after the last unit the range holds ${JSON.stringify(excerpt(r.slice(at)))}`;
  return undefined;
}

function excerpt(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Removes the start tags all texts begin with, and as many end tags from the end of each. */
function withoutSharedAncestors(range: string, units: string[]): { range: string; units: string[] } {
  let prefix = range;
  for (const u of units) {
    let n = 0;
    while (n < prefix.length && n < u.length && prefix[n] === u[n]) n++;
    prefix = prefix.slice(0, n);
  }
  const tags = /^(?:<[^/!?][^>]*[^/]>|<[^/!?>]>)+/.exec(prefix.slice(0, prefix.lastIndexOf(">") + 1))?.[0] ?? "";
  const depth = (tags.match(/</g) ?? []).length;
  if (depth === 0) return { range, units };
  const strip = (text: string): string => {
    let out = text.slice(tags.length);
    for (let k = 0; k < depth; k++) out = out.replace(/<\/[^>]+>$/, "");
    return out;
  };
  const stripped = units.map(strip);
  // Units are elements: when stripping leaves one that is not, the shared tags were its own.
  if (stripped.some((u) => !u.startsWith("<") || !u.endsWith(">"))) return { range, units };
  return { range: strip(range), units: stripped };
}
