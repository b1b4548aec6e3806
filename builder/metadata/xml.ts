// A small namespace-aware element tree over fast-xml-parser, for metadata files.
// fast-xml-parser keeps prefixes as written and does not resolve namespaces, and metadata files
// bind the CTS namespace to `ti:`, `cts:` or the default namespace, so we resolve them here.
import { XMLParser, XMLValidator } from "fast-xml-parser";

export interface XmlElement {
  /** Qualified name as written, e.g. `ti:work` or `work`. */
  name: string;
  /** Prefix as written ("" when none). */
  prefix: string;
  local: string;
  /** Namespace URI the prefix resolves to ("" when none). */
  ns: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** All descendant text in document order, entities decoded, whitespace as in the source. */
  text: string;
}

export type XmlParseResult = { ok: true; root: XmlElement } | { ok: false; line?: number; column?: number; message: string };

export const XML_NS = "http://www.w3.org/XML/1998/namespace";

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignorePiTags: true,
  ignoreDeclaration: true,
});

type OrderedNode = Record<string, unknown> & { ":@"?: Record<string, string> };

/** The first well-formedness error, with its line and column, or undefined when the text is well formed. */
export function wellFormednessError(text: string): { line: number; column: number; message: string } | undefined {
  const valid = XMLValidator.validate(text);
  return valid === true ? undefined : { line: valid.err.line, column: valid.err.col, message: valid.err.msg };
}

/** Checks well-formedness (the parser itself gives no line/column), then builds the element tree. */
export function parseXml(text: string): XmlParseResult {
  const error = wellFormednessError(text);
  if (error) return { ok: false, ...error };
  let parsed: OrderedNode[];
  try {
    parsed = parser.parse(text) as OrderedNode[];
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  const scope = new Map<string, string>([["xml", XML_NS]]);
  for (const node of parsed) {
    const el = toElement(node, scope);
    if (el) return { ok: true, root: el };
  }
  return { ok: false, message: "no root element" };
}

function toElement(node: OrderedNode, parentScope: Map<string, string>): XmlElement | undefined {
  const name = Object.keys(node).find((k) => k !== ":@" && k !== "#text");
  if (name === undefined) return undefined;
  const attrs: Record<string, string> = { ...(node[":@"] ?? {}) };
  let scope = parentScope;
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "xmlns" || key.startsWith("xmlns:")) {
      if (scope === parentScope) scope = new Map(parentScope);
      scope.set(key === "xmlns" ? "" : key.slice(6), value);
    }
  }
  const colon = name.indexOf(":");
  const prefix = colon >= 0 ? name.slice(0, colon) : "";
  const el: XmlElement = {
    name,
    prefix,
    local: colon >= 0 ? name.slice(colon + 1) : name,
    ns: scope.get(prefix) ?? "",
    attrs,
    children: [],
    text: "",
  };
  const content = node[name] as OrderedNode[];
  for (const item of content) {
    if (typeof item["#text"] === "string" || typeof item["#text"] === "number") {
      el.text += String(item["#text"]);
      continue;
    }
    const child = toElement(item, scope);
    if (child) {
      el.children.push(child);
      el.text += child.text;
    }
  }
  return el;
}

/** Direct children with this namespace and local name. */
export function childrenNamed(el: XmlElement, ns: string, local: string): XmlElement[] {
  return el.children.filter((c) => c.ns === ns && c.local === local);
}

export function firstChild(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return el.children.find((c) => c.ns === ns && c.local === local);
}

/** The element's own xml:lang (not inherited), if any. */
export function xmlLang(el: XmlElement): string | undefined {
  return el.attrs["xml:lang"];
}

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: index - lineStart + 1 };
}

/**
 * Line of an attribute `name="value"` (either quote) in the source: the first occurrence, or the
 * last one (a duplicate record). The parser gives no positions, and a warning should point at a line.
 */
export function lineOfAttribute(text: string, name: string, value: string, which: "first" | "last" = "first"): number | undefined {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`\\s${name}\\s*=\\s*["']${escaped}["']`, "g");
  let index = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    index = m.index + 1;
    if (which === "first") break;
  }
  return index < 0 ? undefined : lineColumnAt(text, index).line;
}
