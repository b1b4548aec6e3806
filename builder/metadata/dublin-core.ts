// Dublin Core helpers shared by the CTS, CapiTainS 3 and native loaders: text cleanup, language
// codes, de-duplicated values, and the reading of `structured-metadata` blocks.
import type { DcValue, DublinCore } from "../catalog.js";
import { type XmlElement, xmlLang } from "./xml.js";

export const DC_NS = "http://purl.org/dc/elements/1.1/";
export const DCT_NS = "http://purl.org/dc/terms/";

/** Collapses runs of whitespace and trims: metadata files wrap long titles over several lines. */
export function cleanText(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** The first of these elements with any text, cleaned. */
export function firstText(els: XmlElement[]): string | undefined {
  for (const el of els) {
    const t = cleanText(el.text);
    if (t) return t;
  }
  return undefined;
}

// Corpora mix ISO 639-2 (lat, eng, fre), ISO 639-1 (la, en) and English names (greek); keep the
// shortest standard code.
const LANGUAGES: Record<string, string> = {
  lat: "la",
  la: "la",
  latin: "la",
  grc: "grc",
  greek: "grc",
  eng: "en",
  en: "en",
  english: "en",
  fre: "fr",
  fra: "fr",
  fr: "fr",
  french: "fr",
  ger: "de",
  deu: "de",
  de: "de",
  german: "de",
  ita: "it",
  it: "it",
  italian: "it",
  spa: "es",
  es: "es",
  spanish: "es",
};

/** Normalises a language code to its shortest standard form; unknown codes are kept, lowercased. */
export function normaliseLang(code: string): string {
  const c = cleanText(code).toLowerCase();
  return LANGUAGES[c] ?? c;
}

/** A DcValue from an element's text: tagged with its language when it has an xml:lang. */
export function dcValueOf(text: string, lang: string | undefined): DcValue {
  const value = cleanText(text);
  return lang?.trim() ? { lang: normaliseLang(lang), value } : value;
}

function sameValue(a: DcValue, b: DcValue): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return a.lang === b.lang && a.value === b.value;
}

/** Adds a value under a term, skipping empty and repeated values. `language` holds codes only. */
export function addDc(dc: DublinCore, term: string, value: DcValue): void {
  const text = typeof value === "string" ? value : value.value;
  if (!text) return;
  if (term === "language") {
    const list = (dc.language ??= []);
    const code = normaliseLang(text);
    if (!list.includes(code)) list.push(code);
    return;
  }
  const existing = dc[term];
  const list: DcValue[] = Array.isArray(existing) ? existing : [];
  if (!list.some((v) => sameValue(v, value))) list.push(value);
  dc[term] = list;
}

/** Adds a value under an extension key, skipping empty and repeated values. */
export function addExtension(ext: Record<string, DcValue[]>, key: string, value: DcValue): void {
  const text = typeof value === "string" ? value : value.value;
  if (!text) return;
  const list = (ext[key] ??= []);
  if (!list.some((v) => sameValue(v, value))) list.push(value);
}

/**
 * Reads the children of a `structured-metadata` element: dc and dct terms go into `dc` under their
 * local name, anything else into `ext` under "prefix:localName" as written in the file.
 * `warn` receives problems (a dateCopyrighted that is not a year).
 */
export function readStructuredMetadata(
  block: XmlElement,
  dc: DublinCore,
  ext: Record<string, DcValue[]>,
  warn: (message: string) => void,
): void {
  for (const el of block.children) {
    let text = cleanText(el.text);
    // An empty element may still point somewhere (`<dct:source rdf:resource="..."/>`).
    if (!text) text = cleanText(resourceAttribute(el) ?? "");
    if (!text) continue;
    const value = dcValueOf(text, xmlLang(el));
    if (el.ns === DC_NS || el.ns === DCT_NS) {
      if (el.local === "dateCopyrighted") {
        const year = Number.parseInt(text, 10);
        if (Number.isNaN(year)) warn(`dateCopyrighted "${text}" is not a year; dropped`);
        else if (dc.dateCopyrighted === undefined) dc.dateCopyrighted = year;
        continue;
      }
      addDc(dc, el.local, value);
    } else {
      addExtension(ext, el.name, value);
    }
  }
}

// The rdf prefix is not always `rdf`, so match on the local name of the attribute.
function resourceAttribute(el: XmlElement): string | undefined {
  for (const [key, value] of Object.entries(el.attrs)) {
    if (key.endsWith(":resource")) return value;
  }
  return undefined;
}

/** The optional dublinCore/extensions keys of a node, left out when empty. */
export function withMetadata(
  dc: DublinCore,
  ext: Record<string, DcValue[]>,
): { dublinCore?: DublinCore; extensions?: Record<string, DcValue[]> } {
  return { ...(Object.keys(dc).length > 0 ? { dublinCore: dc } : {}), ...(Object.keys(ext).length > 0 ? { extensions: ext } : {}) };
}
