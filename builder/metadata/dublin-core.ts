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

/**
 * The terms of DCMI Metadata Terms (http://purl.org/dc/terms/), the fifteen elements among them.
 * A name outside it under `dublinCore` would expand to an IRI no vocabulary defines.
 */
const DC_TERMS = new Set(
  (
    "abstract accessRights accrualMethod accrualPeriodicity accrualPolicy alternative audience available " +
    "bibliographicCitation conformsTo contributor coverage created creator date dateAccepted dateCopyrighted " +
    "dateSubmitted description educationLevel extent format hasFormat hasPart hasVersion identifier " +
    "instructionalMethod isFormatOf isPartOf isReferencedBy isReplacedBy isRequiredBy issued isVersionOf " +
    "language license mediator medium modified provenance publisher references relation replaces requires " +
    "rights rightsHolder source spatial subject tableOfContents temporal title type valid"
  ).split(" "),
);

/** Names corpora use for which Dublin Core has a term (CapiTainS files write `dc:author`). */
const DC_SYNONYMS: Record<string, string> = { author: "creator", editor: "contributor", translator: "contributor" };

/** The Dublin Core term a name stands for, or null when it is none. */
export function dcTermOf(name: string): string | null {
  if (DC_TERMS.has(name)) return name;
  return Object.hasOwn(DC_SYNONYMS, name) ? DC_SYNONYMS[name] : null;
}

/**
 * Terms of other vocabularies, keyed by a prefixed name (`saws:isAttributedToAuthor`), and the
 * namespace each prefix stands for, so that the answers can declare it (JSON-LD needs it).
 */
export interface Extensions {
  terms: Record<string, DcValue[]>;
  vocabularies: Record<string, string>;
}

export const newExtensions = (): Extensions => ({ terms: {}, vocabularies: {} });

/**
 * Adds a value under an extension key, skipping empty and repeated values. `namespace` is the one
 * the key's prefix stands for (given, or already known); a key of another namespace than the one
 * its prefix already has is written as a full IRI, so that neither is misread.
 */
export function addExtension(ext: Extensions, key: string, value: DcValue, namespace?: string): void {
  const text = typeof value === "string" ? value : value.value;
  if (!text) return;
  let name = key;
  const colon = key.indexOf(":");
  if (namespace !== undefined && colon > 0) {
    const prefix = key.slice(0, colon);
    const known = ext.vocabularies[prefix];
    if (known === undefined) ext.vocabularies[prefix] = namespace;
    else if (known !== namespace) name = namespace + key.slice(colon + 1);
  }
  const list = (ext.terms[name] ??= []);
  if (!list.some((v) => sameValue(v, value))) list.push(value);
}

/**
 * A dc or dct element's value: under its Dublin Core term, or, when its name is no term, in
 * `ext` under its name as written (with its namespace), said in a warning, never as fake DC.
 */
export function addDcElement(dc: DublinCore, ext: Extensions, el: XmlElement, value: DcValue, warn: (message: string) => void): void {
  const term = dcTermOf(el.local);
  if (term !== null) {
    addDc(dc, term, value);
    return;
  }
  const key = el.prefix ? el.name : `dc:${el.local}`;
  warn(`${el.name} is not a Dublin Core term: kept in extensions as ${key}`);
  addExtension(ext, key, value, el.ns);
}

/**
 * Reads the children of a `structured-metadata` element: dc and dct terms go into `dc` under their
 * term, anything else into `ext` under "prefix:localName" as written in the file.
 * `warn` receives problems (a dateCopyrighted that is not a year).
 */
export function readStructuredMetadata(block: XmlElement, dc: DublinCore, ext: Extensions, warn: (message: string) => void): void {
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
      addDcElement(dc, ext, el, value, warn);
    } else {
      // An element of the default namespace has no prefix to declare: its key is its full IRI.
      if (el.prefix) addExtension(ext, el.name, value, el.ns);
      else if (el.ns) addExtension(ext, el.ns + el.local, value);
      else warn(`${el.name} is in no namespace, so names no term of any vocabulary; ignored`);
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

/** The optional dublinCore/extensions/vocabularies keys of a node, left out when empty. */
export function withMetadata(
  dc: DublinCore,
  ext: Extensions,
): { dublinCore?: DublinCore; extensions?: Record<string, DcValue[]>; vocabularies?: Record<string, string> } {
  const used = usedVocabularies(ext);
  return {
    ...(Object.keys(dc).length > 0 ? { dublinCore: dc } : {}),
    ...(Object.keys(ext.terms).length > 0 ? { extensions: ext.terms } : {}),
    ...(Object.keys(used).length > 0 ? { vocabularies: used } : {}),
  };
}

/** The namespaces of the prefixes the extension keys use. */
function usedVocabularies(ext: Extensions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(ext.terms)) {
    const colon = key.indexOf(":");
    const prefix = colon > 0 ? key.slice(0, colon) : "";
    if (Object.hasOwn(ext.vocabularies, prefix)) out[prefix] = ext.vocabularies[prefix];
  }
  return out;
}
