// Document endpoint GET: the whole TEI, one passage, or a range, cut from the source bytes.

import { concatBytes } from "../bytes.js";
import type { UnreadableSource } from "../catalog.js";
import type { CitedText } from "../citation/cited-text.js";
import type { DocIndex } from "../citation/indexer.js";
import { DtsError } from "../error.js";
import type { Site } from "../site.js";
import { collectionUrl, documentUrl, type LinkRel, linkHeader, navigationUrl } from "../urls.js";
import { DTS_NS, TEI_NS, TEI_TYPE } from "../wire.js";
import { noDocument } from "./messages.js";
import { type DtsResponse, jsonError, renderError, xmlError } from "./response.js";
import { type Selection, select } from "./selection.js";

export interface DocumentQuery {
  id: string;
  ref?: string;
  start?: string;
  end?: string;
  format?: string;
}

const FORMATS = new Set(["tei", "xml", "application/tei+xml"]);

export function unknownDocument(site: Site, id: string): DtsResponse {
  return xmlError(site, 404, noDocument(id));
}

/** Why a document whose TEI file exists cannot be served. */
export function unreadableText(id: string, u: UnreadableSource): string {
  return (
    `The document "${id}" has a TEI file, ${u.file}, but it is not well-formed XML ` +
    `(line ${u.line}, column ${u.column}: ${u.reason}), so it cannot be served until the file is fixed.`
  );
}

/**
 * The Document or Navigation answer for a record with no text to serve. No file yet: 404, and
 * a POST creates it. A file that is not well formed: 409, the status the write API gives for
 * the same state (the resource exists; its current state, not the request, is what is wrong,
 * and whoever edits the corpus can resolve it), and no 5xx, which would read as a server fault.
 */
export function withoutText(site: Site, kind: "document" | "navigation", id: string, unreadable?: UnreadableSource): DtsResponse {
  if (unreadable) {
    const description = unreadableText(id, unreadable);
    return kind === "document" ? xmlError(site, 409, description) : jsonError(site, 409, description);
  }
  return kind === "document"
    ? xmlError(
        site,
        404,
        `The document "${id}" has a metadata record but no text yet: its TEI file has not been written. ` +
          `A POST of a whole TEI document to this id creates it.`,
      )
    : jsonError(site, 404, `The document "${id}" has a metadata record but no text yet, so it has no citable units.`);
}

export function renderDocument(site: Site, q: DocumentQuery, text: CitedText): DtsResponse {
  if (q.format !== undefined && !FORMATS.has(q.format)) {
    return xmlError(site, 400, `format "${q.format}" is not supported: this service answers in TEI (format=tei, the default).`);
  }
  const common: [LinkRel, string][] = [
    ["contents", navigationUrl(site, q.id)],
    ["collection", collectionUrl(site, q.id)],
  ];
  if (q.ref === undefined && q.start === undefined && q.end === undefined) {
    return { status: 200, type: TEI_TYPE, link: linkHeader(site, common), body: text.source };
  }
  const selection = select(text, q);
  if (selection instanceof DtsError) return renderError(site, "document", selection);
  return {
    status: 200,
    type: TEI_TYPE,
    link: linkHeader(site, [...passageLinks(site, text, selection), ...common]),
    body: fragment(text.index, text.source, text.units[selection.first].element, text.units[selection.last].element),
  };
}

/** prev, next, up, first and last of a passage or a range (a range's are windows of its size). */
function passageLinks(site: Site, text: CitedText, s: Selection): [LinkRel, string][] {
  const units = text.units;
  const list = text.levels[s.level];
  const a = text.positionOf(s.first);
  const b = text.positionOf(s.last);
  const links: [LinkRel, string][] = [];
  const url = (from: number, to: number): string =>
    s.isRange
      ? documentUrl(site, text.id, { start: units[list[from]].ref, end: units[list[to]].ref })
      : documentUrl(site, text.id, { ref: units[list[from]].ref });
  const size = b - a + 1;
  if (a > 0) links.push(["prev", url(Math.max(0, a - size), a - 1)]);
  if (b < list.length - 1) links.push(["next", url(b + 1, Math.min(list.length - 1, b + size))]);
  links.push(["up", upUrl(site, text, s)]);
  links.push(["first", url(0, Math.min(size, list.length) - 1)]);
  links.push(["last", url(Math.max(0, list.length - size), list.length - 1)]);
  return links;
}

/** The parent passage; for a range, the nearest unit holding both ends; else the whole document. */
function upUrl(site: Site, text: CitedText, s: Selection): string {
  const units = text.units;
  const ancestors = new Set<number>();
  for (let u = units[s.first].parent; u >= 0; u = units[u].parent) ancestors.add(u);
  for (let u = units[s.last].parent; u >= 0; u = units[u].parent) {
    if (ancestors.has(u)) return documentUrl(site, text.id, { ref: units[u].ref });
  }
  return documentUrl(site, text.id);
}

const encoder = new TextEncoder();

/**
 * `TEI` > `dts:fragment` holding the exact source from the first unit's start to the last
 * unit's end, with the start tags of the first unit's ancestors and the end tags of the last
 * unit's ancestors below their common ancestor, so the fragment is well formed.
 */
export interface Wrapper {
  /** Qualified name, with the `dts` prefix. */
  name: string;
  namespace: string;
}

/** The 1-draft2 wrapper of a passage. */
export const DRAFT_WRAPPER: Wrapper = { name: "dts:fragment", namespace: DTS_NS };

export function fragment(
  index: DocIndex,
  source: Uint8Array,
  firstElement: number,
  lastElement: number,
  wrapper: Wrapper = DRAFT_WRAPPER,
): Uint8Array {
  const els = index.elements;
  const chainOf = (e: number): number[] => {
    const chain: number[] = [];
    for (let p = els[e].parent; p >= 0; p = els[p].parent) chain.push(p);
    return chain;
  };
  const up = chainOf(firstElement);
  const down = chainOf(lastElement);
  const common = new Set(down);
  const lcaIndex = up.findIndex((e) => common.has(e));
  const lca = lcaIndex >= 0 ? up[lcaIndex] : -1;
  const opens = (lcaIndex >= 0 ? up.slice(0, lcaIndex) : up).reverse();
  const closes = lca >= 0 ? down.slice(0, down.indexOf(lca)) : down;

  // No encoding declaration (UTF-8 is XML's default): parsers given the text as a decoded
  // string, as Python's lxml is by MyCapytain, refuse one.
  const head =
    `<?xml version="1.0"?>\n` +
    (index.doctype ? index.doctype + "\n" : "") +
    `<TEI xmlns="${TEI_NS}"><${wrapper.name} xmlns:dts="${wrapper.namespace}"${namespacesInScope(index, lca)}>`;
  const parts: Uint8Array[] = [encoder.encode(head)];
  for (const e of opens) parts.push(source.subarray(els[e].start, els[e].startEnd));
  parts.push(source.subarray(els[firstElement].start, endOf(index, lastElement)));
  for (const e of closes) parts.push(source.subarray(els[e].closeStart, els[e].closeEnd));
  parts.push(encoder.encode(`</${wrapper.name}></TEI>\n`));
  return concatBytes(parts);
}

function endOf(index: DocIndex, element: number): number {
  const el = index.elements[element];
  return Math.max(el.closeEnd, el.startEnd);
}

/** Namespace declarations in force at an element, other than TEI as the default namespace. */
function namespacesInScope(index: DocIndex, element: number): string {
  const byPrefix = new Map<string, string>();
  const chain: number[] = [];
  for (let e = element; e >= 0; e = index.elements[e].parent) chain.push(e);
  for (const e of chain.reverse()) {
    for (const decl of index.elements[e].ns) byPrefix.set(decl.slice(0, decl.indexOf("=")), decl);
  }
  const defaultDecl = byPrefix.get("xmlns");
  byPrefix.delete("xmlns");
  byPrefix.delete("xmlns:dts");
  let out = "";
  if (defaultDecl === undefined) out += ` xmlns=""`;
  else if (defaultDecl !== `xmlns="${TEI_NS}"`) out += ` ${defaultDecl}`;
  for (const decl of byPrefix.values()) out += ` ${decl}`;
  return out;
}
