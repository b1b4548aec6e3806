// A small, fast XML tokenizer over UTF-8 bytes. It reports every element with its exact
// byte offsets, which a tree parser does not give and the citation index is built on.
// It checks what the index relies on (tags balance, attributes are well formed, the
// document has one root) and reports the first problem with a line and column.

export interface Attribute {
  /** The qualified name as written, e.g. `n`, `xml:id`, `xmlns:tei`. */
  name: string;
  value: string;
}

export interface OpenTag {
  /** The qualified name as written. */
  qname: string;
  /** The local part of the name. */
  local: string;
  /** The namespace URI, resolved from the declarations in scope ("" for none). */
  uri: string;
  attributes: Attribute[];
  /** Offset of `<`. */
  start: number;
  /** Offset just after `>` of the start tag. */
  startEnd: number;
  selfClosing: boolean;
}

export interface ScanHandler {
  open(tag: OpenTag, depth: number): void;
  /** `start`..`end` is the end tag (empty at `end` for a self-closing element). */
  close(tag: OpenTag, start: number, end: number, depth: number): void;
  /** The DOCTYPE declaration, with its internal subset if any. */
  doctype?(start: number, end: number): void;
}

export class XmlSyntaxError extends Error {
  constructor(
    readonly offset: number,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

/**
 * Deepest element nesting accepted: far above real TEI (a few tens of levels), and it keeps
 * every per-element walk of the ancestors (namespace lookups, the index's parents) bounded, so
 * scanning stays linear in the size of the input.
 */
export const MAX_DEPTH = 256;

/** The input nests elements deeper than MAX_DEPTH. */
export class XmlDepthError extends XmlSyntaxError {}

const LT = 0x3c,
  GT = 0x3e,
  SLASH = 0x2f,
  BANG = 0x21,
  QUEST = 0x3f,
  EQ = 0x3d;
const DQ = 0x22,
  SQ = 0x27,
  AMP = 0x26,
  LBRACKET = 0x5b,
  RBRACKET = 0x5d;

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const decoder = new TextDecoder("utf-8");

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** Line and column (1-based, column in characters) of a byte offset. */
export function lineColumn(buf: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const stop = Math.min(offset, buf.length);
  for (let i = 0; i < stop; i++) {
    if (buf[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const column = decoder.decode(buf.subarray(lineStart, stop)).length + 1;
  return { line, column };
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references; leaves others as written. */
export function decodeEntities(text: string): string {
  if (text.indexOf("&") < 0) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name] ?? whole;
  });
}

interface Frame {
  tag: OpenTag;
  /** Namespace bindings declared on this element (prefix -> uri), or null. */
  ns: Map<string, string> | null;
}

/**
 * Scans `buf` from `from` to `to` (default: the whole buffer) and calls the handler.
 * With `fragment` true, several top-level elements and text are allowed (a passage body).
 */
export function scanXml(
  buf: Uint8Array,
  handler: ScanHandler,
  options: { from?: number; to?: number; fragment?: boolean; namespaces?: Map<string, string> } = {},
): void {
  const end = options.to ?? buf.length;
  let pos = options.from ?? 0;
  if (pos === 0 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) pos = 3;
  const stack: Frame[] = [];
  const rootNs = new Map<string, string>(options.namespaces ?? []);
  rootNs.set("xml", XML_NS);
  let roots = 0;

  const fail = (at: number, reason: string): never => {
    const { line, column } = lineColumn(buf, at);
    throw new XmlSyntaxError(at, line, column, reason);
  };

  const resolve = (prefix: string, at: number, isAttr: boolean): string => {
    if (prefix === "" && isAttr) return "";
    for (let i = stack.length - 1; i >= 0; i--) {
      const uri = stack[i].ns?.get(prefix);
      if (uri !== undefined) return uri;
    }
    const uri = rootNs.get(prefix);
    if (uri !== undefined) return uri;
    if (prefix === "") return "";
    return fail(at, `namespace prefix "${prefix}" is not declared`);
  };

  while (pos < end) {
    const lt = buf.indexOf(LT, pos);
    if (lt < 0 || lt >= end) {
      checkText(pos, end);
      break;
    }
    if (lt > pos) checkText(pos, lt);
    const next = buf[lt + 1];
    if (next === SLASH) {
      // End tag.
      const gt = buf.indexOf(GT, lt);
      if (gt < 0 || gt >= end) fail(lt, "unterminated end tag");
      const qname = decoder.decode(buf.subarray(lt + 2, gt)).trimEnd();
      const frame = stack.pop();
      if (!frame) fail(lt, `end tag </${qname}> has no matching start tag`);
      if (frame!.tag.qname !== qname) {
        fail(lt, `end tag </${qname}> does not match start tag <${frame!.tag.qname}>`);
      }
      handler.close(frame!.tag, lt, gt + 1, stack.length);
      pos = gt + 1;
    } else if (next === BANG) {
      if (buf[lt + 2] === 0x2d && buf[lt + 3] === 0x2d) {
        const close = indexOfSeq(buf, "-->", lt + 4, end);
        if (close < 0) fail(lt, "unterminated comment");
        pos = close + 3;
      } else if (startsWith(buf, "[CDATA[", lt + 2)) {
        if (stack.length === 0 && !options.fragment) fail(lt, "CDATA section outside the root element");
        const close = indexOfSeq(buf, "]]>", lt + 9, end);
        if (close < 0) fail(lt, "unterminated CDATA section");
        pos = close + 3;
      } else if (startsWith(buf, "DOCTYPE", lt + 2)) {
        if (stack.length > 0 || roots > 0) fail(lt, "DOCTYPE inside the document");
        pos = skipDoctype(lt);
        handler.doctype?.(lt, pos);
      } else {
        fail(lt, "unknown markup declaration");
      }
    } else if (next === QUEST) {
      const close = indexOfSeq(buf, "?>", lt + 2, end);
      if (close < 0) fail(lt, "unterminated processing instruction");
      pos = close + 2;
    } else {
      pos = openTag(lt);
    }
  }
  if (stack.length > 0) {
    const tag = stack[stack.length - 1].tag;
    fail(tag.start, `element <${tag.qname}> is not closed`);
  }
  if (roots === 0 && !options.fragment) fail(pos, "no root element");

  function checkText(from: number, to: number): void {
    if (stack.length > 0 || options.fragment) return;
    for (let i = from; i < to; i++) {
      if (!isSpace(buf[i])) fail(i, "text outside the root element");
    }
  }

  function skipDoctype(lt: number): number {
    let i = lt + 9;
    let quote = 0;
    let inSubset = false;
    for (; i < end; i++) {
      const c = buf[i];
      if (quote) {
        if (c === quote) quote = 0;
      } else if (c === DQ || c === SQ) {
        quote = c;
      } else if (c === LBRACKET) {
        inSubset = true;
      } else if (c === RBRACKET) {
        inSubset = false;
      } else if (c === LT && inSubset && buf[i + 1] === BANG && buf[i + 2] === 0x2d) {
        const close = indexOfSeq(buf, "-->", i + 4, end);
        if (close < 0) fail(i, "unterminated comment in DOCTYPE");
        i = close + 2;
      } else if (c === GT && !inSubset) {
        return i + 1;
      }
    }
    return fail(lt, "unterminated DOCTYPE declaration");
  }

  function openTag(lt: number): number {
    let i = lt + 1;
    const nameStart = i;
    while (i < end && !isSpace(buf[i]) && buf[i] !== GT && buf[i] !== SLASH) i++;
    if (i === nameStart) fail(lt, "a tag needs a name");
    const qname = decoder.decode(buf.subarray(nameStart, i));
    const attributes: Attribute[] = [];
    let ns: Map<string, string> | null = null;
    let selfClosing = false;
    for (;;) {
      while (i < end && isSpace(buf[i])) i++;
      if (i >= end) fail(lt, `unterminated start tag <${qname}>`);
      const c = buf[i];
      if (c === GT) {
        i++;
        break;
      }
      if (c === SLASH) {
        if (buf[i + 1] !== GT) fail(i, `expected "/>" in <${qname}>`);
        selfClosing = true;
        i += 2;
        break;
      }
      const attrStart = i;
      while (i < end && !isSpace(buf[i]) && buf[i] !== EQ && buf[i] !== GT && buf[i] !== SLASH) i++;
      const name = decoder.decode(buf.subarray(attrStart, i));
      while (i < end && isSpace(buf[i])) i++;
      if (buf[i] !== EQ) fail(i, `attribute "${name}" of <${qname}> has no value`);
      i++;
      while (i < end && isSpace(buf[i])) i++;
      const quote = buf[i];
      if (quote !== DQ && quote !== SQ) fail(i, `value of attribute "${name}" must be quoted`);
      const close = buf.indexOf(quote, i + 1);
      if (close < 0 || close >= end) fail(i, `unterminated value of attribute "${name}"`);
      // One pass over the value: "<" is an error, "&" means references to decode. (Searching
      // for "&" with indexOf ran to the end of the document for every attribute without one.)
      let hasAmp = false;
      for (let k = i + 1; k < close; k++) {
        const b = buf[k];
        if (b === LT) fail(k, `"<" in the value of attribute "${name}"`);
        else if (b === AMP) hasAmp = true;
      }
      const raw = decoder.decode(buf.subarray(i + 1, close));
      const value = hasAmp ? decodeEntities(raw) : raw;
      for (const a of attributes) if (a.name === name) fail(attrStart, `duplicate attribute "${name}"`);
      attributes.push({ name, value });
      if (name === "xmlns") (ns ??= new Map()).set("", value);
      else if (name.startsWith("xmlns:")) (ns ??= new Map()).set(name.slice(6), value);
      i = close + 1;
    }
    if (stack.length === 0) {
      if (roots > 0 && !options.fragment) fail(lt, "a second root element");
      roots++;
    }
    const colon = qname.indexOf(":");
    const prefix = colon < 0 ? "" : qname.slice(0, colon);
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    if (stack.length >= MAX_DEPTH) {
      const { line, column } = lineColumn(buf, lt);
      throw new XmlDepthError(lt, line, column, `<${qname}> is nested deeper than ${MAX_DEPTH} levels, the limit`);
    }
    const frame: Frame = { tag: null as unknown as OpenTag, ns };
    stack.push(frame);
    const uri = resolve(prefix, lt, false);
    const tag: OpenTag = { qname, local, uri, attributes, start: lt, startEnd: i, selfClosing };
    frame.tag = tag;
    handler.open(tag, stack.length - 1);
    if (selfClosing) {
      stack.pop();
      handler.close(tag, i, i, stack.length);
    }
    return i;
  }
}

/** The value of an attribute by its qualified name as written. */
export function attr(tag: OpenTag, name: string): string | undefined {
  for (const a of tag.attributes) if (a.name === name) return a.value;
  return undefined;
}

function startsWith(buf: Uint8Array, text: string, at: number): boolean {
  for (let k = 0; k < text.length; k++) if (buf[at + k] !== text.charCodeAt(k)) return false;
  return true;
}

function indexOfSeq(buf: Uint8Array, text: string, from: number, end: number): number {
  const first = text.charCodeAt(0);
  let i = from;
  for (;;) {
    i = buf.indexOf(first, i);
    if (i < 0 || i + text.length > end) return -1;
    if (startsWith(buf, text, i)) return i;
    i++;
  }
}
