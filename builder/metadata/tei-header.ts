// Metadata of a TEI file from its teiHeader, for the native layout. Only the header is parsed:
// texts run to several MB and the body is the citation indexer's business.
import { readFile } from "node:fs/promises";
import type { DublinCore, Warning } from "../catalog.js";
import { addDc, cleanText, dcValueOf } from "./dublin-core.js";
import { parseXml, wellFormednessError, type XmlElement, xmlLang } from "./xml.js";

export interface HeaderMetadata {
  id?: string;
  title?: string;
  description?: string;
  dublinCore: DublinCore;
}

const HEADER_END = /<\/(?:[\w.-]+:)?teiHeader\s*>/;
const ID_TYPES = new Set(["urn", "uri"]);

/** Reads the teiHeader of `file`. A header that is not well formed gives a warning and empty metadata. */
export async function readTeiHeader(file: string, warnings: Warning[]): Promise<HeaderMetadata> {
  return teiHeaderFromText(await readFile(file, "utf8"), file, warnings);
}

/** The metadata of a TEI document's teiHeader, from its text; `file` names it in warnings. */
export function teiHeaderFromText(text: string, file: string, warnings: Warning[]): HeaderMetadata {
  const end = HEADER_END.exec(text);
  if (!end) {
    // No header to read; still say so if the file is broken, since its listing relies on defaults.
    const error = wellFormednessError(text);
    if (error) {
      warnings.push({
        file,
        line: error.line,
        column: error.column,
        message: `not well-formed XML (${error.message}); listed with default metadata`,
      });
    }
    return { dublinCore: {} };
  }
  const headerEnd = end.index + end[0].length;
  const root = rootElementName(text);
  // Close the root element so the prefix is a document; its line numbers are the file's own.
  const closeRoot = root ? `</${root}>` : "";
  let parsed = parseXml(text.slice(0, headerEnd) + closeRoot);
  if (!parsed.ok && text.slice(0, headerEnd).includes("<!DOCTYPE")) {
    // The parser rejects some internal subsets (parameter entities, seen in Perseus files);
    // the header's own text is what matters, so read it again with the DOCTYPE blanked,
    // keeping its newlines so that line numbers stay the file's.
    const blanked = text.slice(0, headerEnd).replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\]\s*)?>/, (d) => d.replace(/[^\n]/g, " "));
    const retry = parseXml(blanked + closeRoot);
    if (retry.ok) parsed = retry;
  }
  if (!parsed.ok) {
    warnings.push({
      file,
      line: parsed.line,
      column: parsed.column,
      message: `teiHeader is not well-formed XML (${parsed.message}); listed with default metadata`,
    });
    return { dublinCore: {} };
  }
  const header = findLocal(parsed.root, "teiHeader");
  const meta = header ? readHeader(header) : { dublinCore: {} };
  if (!meta.dublinCore.language) {
    const lang = xmlLang(parsed.root) ?? textLang(text, headerEnd);
    if (lang) addDc(meta.dublinCore, "language", lang);
  }
  return meta;
}

function readHeader(header: XmlElement): HeaderMetadata {
  const dc: DublinCore = {};
  const fileDesc = child(header, "fileDesc");
  const titleStmt = fileDesc && child(fileDesc, "titleStmt");
  const pubStmt = fileDesc && child(fileDesc, "publicationStmt");
  const profileDesc = child(header, "profileDesc");
  const titles = titleStmt ? children(titleStmt, "title") : [];
  for (const t of titles) addDc(dc, "title", dcValueOf(t.text, xmlLang(t)));
  for (const a of titleStmt ? children(titleStmt, "author") : []) addDc(dc, "creator", dcValueOf(a.text, xmlLang(a)));
  for (const e of titleStmt ? children(titleStmt, "editor") : []) addDc(dc, "contributor", dcValueOf(e.text, xmlLang(e)));
  let id: string | undefined;
  if (pubStmt) {
    const publishers = children(pubStmt, "publisher");
    for (const p of publishers.length > 0 ? publishers : children(pubStmt, "authority")) {
      addDc(dc, "publisher", dcValueOf(p.text, xmlLang(p)));
    }
    for (const d of children(pubStmt, "date")) addDc(dc, "date", cleanText(d.text) || cleanText(d.attrs.when ?? ""));
    const idno = children(pubStmt, "idno").find((i) => ID_TYPES.has((i.attrs.type ?? "").toLowerCase()) && cleanText(i.text));
    if (idno) id = cleanText(idno.text);
  }
  const langUsage = profileDesc && child(profileDesc, "langUsage");
  for (const l of langUsage ? children(langUsage, "language") : []) {
    if (l.attrs.ident) addDc(dc, "language", l.attrs.ident);
  }
  const abstract = profileDesc && child(profileDesc, "abstract");
  const description = abstract ? cleanText(abstract.text) : "";
  if (description) addDc(dc, "description", description);
  const title = titles.map((t) => cleanText(t.text)).find(Boolean);
  return {
    ...(id ? { id } : {}),
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    dublinCore: dc,
  };
}

// TEI P5 files use the TEI namespace and P4 files none; match on local names only.
function children(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => c.local === local);
}

function child(el: XmlElement, local: string): XmlElement | undefined {
  return el.children.find((c) => c.local === local);
}

function findLocal(el: XmlElement, local: string): XmlElement | undefined {
  if (el.local === local) return el;
  for (const c of el.children) {
    const found = findLocal(c, local);
    if (found) return found;
  }
  return undefined;
}

/** Name of the document element, skipping the XML declaration, comments, PIs and a DOCTYPE. */
export function rootElementName(text: string): string | undefined {
  let i = text.indexOf("<");
  while (i !== -1) {
    let next: number;
    if (text.startsWith("<?", i)) next = after(text, "?>", i);
    else if (text.startsWith("<!--", i)) next = after(text, "-->", i);
    else if (text.startsWith("<!", i)) next = afterDoctype(text, i);
    else return /^<([^\s/>]+)/.exec(text.slice(i, i + 200))?.[1];
    if (next === -1) return undefined;
    i = text.indexOf("<", next);
  }
  return undefined;
}

/** Index just past the next `token` from `start`, or -1. */
function after(text: string, token: string, start: number): number {
  const at = text.indexOf(token, start);
  return at === -1 ? -1 : at + token.length;
}

// A DOCTYPE may hold an internal subset in [...] whose declarations contain '>' themselves.
function afterDoctype(text: string, start: number): number {
  const bracket = text.indexOf("[", start);
  const close = text.indexOf(">", start);
  if (bracket !== -1 && bracket < close) {
    const end = text.indexOf("]", bracket);
    return end === -1 ? -1 : after(text, ">", end);
  }
  return close === -1 ? -1 : close + 1;
}

/** The xml:lang of the `<text>` element after the header, if any. */
function textLang(text: string, from: number): string | undefined {
  const m = /<(?:[\w.-]+:)?text\b([^>]*)>/.exec(text.slice(from, from + 20000));
  return m ? /xml:lang\s*=\s*["']([^"']+)["']/.exec(m[1])?.[1] : undefined;
}
