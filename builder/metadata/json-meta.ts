// Reading `collection.json` and `<name>.json` sidecars: user-written JSON, so every key is checked
// and a bad key is a warning, not a failed build.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { DcValue, DublinCore, Warning } from "../catalog.js";
import { CorpusError } from "../catalog.js";
import { addDc, addExtension, cleanText, dcTermOf, newExtensions, normaliseLang, withMetadata } from "./dublin-core.js";
import { lineColumnAt } from "./xml.js";

export interface JsonMeta {
  id?: string;
  title?: string;
  description?: string;
  dublinCore?: DublinCore;
  extensions?: Record<string, DcValue[]>;
  vocabularies?: Record<string, string>;
}

export const COLLECTION_FILE = "collection.json";
export const ROOT_ID = "default";
export const ROOT_TITLE = "Corpus";

const KEYS = new Set(["id", "title", "description", "dublinCore", "extensions"]);

/** Reads and checks a metadata JSON file. Returns undefined (with a warning) if it cannot be used. */
export async function readJsonMeta(file: string, warnings: Warning[]): Promise<JsonMeta | undefined> {
  // Editors on Windows may save a byte-order mark, which JSON.parse rejects.
  const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    // JSON.parse's message quotes a raw, possibly multi-line excerpt: say what is at the error instead.
    const at = jsonErrorOffset(text);
    const message =
      at < 0
        ? `invalid JSON (${(e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ")})`
        : at >= text.length
          ? "invalid JSON: the file ends too early"
          : `invalid JSON: unexpected ${JSON.stringify(text[at])}`;
    warnings.push({ file, ...(at >= 0 ? lineColumnAt(text, at) : {}), message });
    return undefined;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    warnings.push({ file, message: "expected a JSON object" });
    return undefined;
  }
  const warn = (message: string): void => {
    warnings.push({ file, message });
  };
  const obj = data as Record<string, unknown>;
  const meta: JsonMeta = {};
  for (const key of Object.keys(obj)) {
    if (!KEYS.has(key)) warn(`unknown key "${key}" ignored`);
  }
  for (const key of ["id", "title", "description"] as const) {
    const v = obj[key];
    if (v === undefined) continue;
    if (typeof v === "string" && cleanText(v)) meta[key] = key === "id" ? v.trim() : cleanText(v);
    else warn(`"${key}" must be a non-empty string; ignored`);
  }
  if (obj.dublinCore !== undefined) meta.dublinCore = readDublinCore(obj.dublinCore, warn);
  if (obj.extensions !== undefined) Object.assign(meta, readExtensions(obj.extensions, warn));
  return meta;
}

/**
 * Reads the corpus-root `collection.json`, if any. It sets the id every URL depends on, so a broken
 * one stops the build instead of silently falling back to "default".
 */
export async function readRootCollectionJson(corpusDir: string, present: boolean): Promise<JsonMeta> {
  if (!present) return {};
  const file = join(corpusDir, COLLECTION_FILE);
  const warnings: Warning[] = [];
  const meta = await readJsonMeta(file, warnings);
  if (!meta) {
    const w = warnings[0];
    throw new CorpusError({ file, line: w?.line, column: w?.column }, w?.message ?? "unreadable collection.json");
  }
  return meta;
}

function readDublinCore(v: unknown, warn: (m: string) => void): DublinCore | undefined {
  if (!isObject(v)) {
    warn(`"dublinCore" must be an object; ignored`);
    return undefined;
  }
  const dc: DublinCore = {};
  for (const [term, raw] of Object.entries(v)) {
    if (term === "dateCopyrighted") {
      const year = typeof raw === "number" ? raw : Number.parseInt(String(raw), 10);
      if (Number.isInteger(year)) dc.dateCopyrighted = year;
      else warn(`dublinCore.dateCopyrighted must be a year; ignored`);
      continue;
    }
    const dcTerm = dcTermOf(term);
    if (dcTerm === null) {
      warn(`dublinCore.${term} is not a Dublin Core term; ignored (terms of other vocabularies go in "extensions")`);
      continue;
    }
    for (const value of readValues(raw, `dublinCore.${term}`, warn)) addDc(dc, dcTerm, value);
  }
  return dc;
}

/**
 * Prefixes an `extensions` key may use without declaring them in its `@context`: vocabularies
 * metadata commonly draws on. The namespaces are those each vocabulary publishes.
 */
const KNOWN_PREFIXES: Record<string, string> = {
  dc: "http://purl.org/dc/elements/1.1/",
  dct: "http://purl.org/dc/terms/",
  cts: "http://chs.harvard.edu/xmlns/cts",
  tei: "http://www.tei-c.org/ns/1.0",
  foaf: "http://xmlns.com/foaf/0.1/",
  skos: "http://www.w3.org/2004/02/skos/core#",
  schema: "https://schema.org/",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
};

const ABSOLUTE_IRI = /^[a-z][a-z0-9+.-]*:\/\/[^\s<>"{}|\\^`]+$/i;

/**
 * `extensions`: terms of other vocabularies, each key a prefixed name whose prefix the object's
 * own `@context` declares (or a well-known one), or a full IRI; any other key would expand to
 * no term in JSON-LD, so it is refused with a warning.
 */
function readExtensions(v: unknown, warn: (m: string) => void): Pick<JsonMeta, "extensions" | "vocabularies"> {
  if (!isObject(v)) {
    warn(`"extensions" must be an object; ignored`);
    return {};
  }
  const declared = readPrefixes(v["@context"], warn);
  const ext = newExtensions();
  for (const [key, raw] of Object.entries(v)) {
    if (key === "@context") continue;
    const colon = key.indexOf(":");
    const prefix = colon > 0 ? key.slice(0, colon) : "";
    const namespace = Object.hasOwn(declared, prefix)
      ? declared[prefix]
      : Object.hasOwn(KNOWN_PREFIXES, prefix)
        ? KNOWN_PREFIXES[prefix]
        : undefined;
    if (namespace === undefined && !ABSOLUTE_IRI.test(key)) {
      warn(
        `extensions.${key}: a key is a prefixed name whose prefix "extensions"."@context" declares (such as "ex:curator" with {"ex": "https://example.org/ns#"}) or a full IRI; ignored`,
      );
      continue;
    }
    for (const value of readValues(raw, `extensions.${key}`, warn)) addExtension(ext, key, value, namespace);
  }
  const { extensions, vocabularies } = withMetadata({}, ext);
  return { ...(extensions ? { extensions } : {}), ...(vocabularies ? { vocabularies } : {}) };
}

/** The prefixes an `extensions` object declares in its `@context`: each an absolute IRI. */
function readPrefixes(v: unknown, warn: (m: string) => void): Record<string, string> {
  if (v === undefined) return {};
  if (!isObject(v)) {
    warn(`extensions.@context must be an object of prefixes and their IRIs; ignored`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [prefix, iri] of Object.entries(v)) {
    if (/^[A-Za-z_][\w.-]*$/.test(prefix) && typeof iri === "string" && ABSOLUTE_IRI.test(iri)) out[prefix] = iri;
    else warn(`extensions.@context.${prefix}: expected a prefix and an absolute IRI, such as "ex": "https://example.org/ns#"; ignored`);
  }
  return out;
}

/** A term's values: an array of strings or {lang, value}; a single value is accepted too. */
function readValues(raw: unknown, where: string, warn: (m: string) => void): DcValue[] {
  const list = Array.isArray(raw) ? raw : [raw];
  const out: DcValue[] = [];
  for (const item of list) {
    if (typeof item === "string" || typeof item === "number") {
      out.push(cleanText(String(item)));
    } else if (isObject(item) && typeof item.value === "string" && typeof item.lang === "string") {
      out.push({ lang: normaliseLang(item.lang), value: cleanText(item.value) });
    } else {
      warn(`${where}: expected a string or {"lang", "value"}; value ignored`);
    }
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Offset of the first syntax error in `text`, or -1. JSON.parse does not always say where
 * ("Unexpected token '}', ... is not valid JSON"), and users need a line to fix a sidecar.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const string = (): void => {
    if (text[i] !== '"') fail();
    i++;
    while (text[i] !== '"') {
      if (i >= text.length || text[i] < " ") fail();
      i += text[i] === "\\" ? 2 : 1;
    }
    i++;
  };
  const literal = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
  const list = (close: string, item: () => void): void => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      if (text[i] !== ",") fail();
      i++;
    }
  };
  const value = (): void => {
    space();
    if (text[i] === "{") {
      list("}", () => {
        space();
        string();
        space();
        if (text[i] !== ":") fail();
        i++;
        value();
      });
    } else if (text[i] === "[") {
      list("]", value);
    } else if (text[i] === '"') {
      string();
    } else {
      literal.lastIndex = i;
      if (!literal.test(text)) fail();
      i = literal.lastIndex;
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail();
  } catch (at) {
    return Math.min(at as number, text.length);
  }
  return -1;
}
