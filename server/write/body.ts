// Request bodies of the write API: read with a size limit, then checked with the project's
// own scanner (which gives every element's byte offsets, so submitted elements are spliced
// into the source exactly as written, never re-serialised). No DOCTYPE and no entity
// declaration is accepted, so nothing is ever expanded; only the five predefined entities
// and character references may appear.

import { DtsError } from "../../builder/error.js";
import { DTS_NS, TEI_NS } from "../../builder/wire.js";
import { lineColumn, type OpenTag, scanXml, XmlDepthError, XmlSyntaxError } from "../../builder/xml/scan.js";

/** A request the write API refuses, with the status and the description of the error body. */

/** The status logged for an upload the client cut off (no one receives the answer). */
export const CLIENT_ABORTED = 499;

/**
 * Reads a request body, refusing (413) one larger than `limit` bytes as soon as the declared
 * length or the bytes received pass it: an unbounded body is never buffered.
 */
export async function readBody(request: Request, limit: number, tooLarge: (limit: number) => DtsError): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client closed the connection mid-body: its event, not the server's (nginx's 499).
      throw new DtsError(CLIENT_ABORTED, "The client closed the connection before the body was complete; nothing was written.");
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  // A Buffer: the scanner's byte searches are many times faster on one than on a plain Uint8Array.
  return Buffer.concat(chunks, size);
}

/** An element at the top of `dts:fragment`, or a comment or processing instruction between them. */
export interface FragmentItem {
  kind: "element" | "other";
  /** Byte offsets in the body: [start, end). */
  start: number;
  end: number;
  tag?: OpenTag;
  /** Elements inside this one of its own kind (an <l> in an <l>), checked against the new index. */
  sameKind: OpenTag[];
}

export interface FragmentBody {
  body: Uint8Array;
  items: FragmentItem[];
  elements: (FragmentItem & { tag: OpenTag })[];
  /** Namespace bindings in scope at `dts:fragment` (prefix -> URI; "" is the default namespace). */
  context: Map<string, string>;
  /** Prefixes the submitted elements use without declaring them themselves. */
  free: Set<string>;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XINCLUDE_NS = ["http://www.w3.org/2001/XInclude", "http://www.w3.org/2003/XInclude"];

/** Content from outside the body is never pulled in: XInclude elements are refused. */
function checkInert(tag: OpenTag, body: Uint8Array, docs: string): void {
  if (XINCLUDE_NS.includes(tag.uri)) {
    throw new DtsError(
      400,
      `The body holds an XInclude element <${tag.qname}> (${placeInBody(body, tag.start)}): bodies may not include content from outside them. Write the content itself. See ${docs}#outside-content.`,
    );
  }
}

/** "line L, column C" of a byte offset in a body, for messages. */
export function placeInBody(body: Uint8Array, offset: number): string {
  const { line, column } = lineColumn(body, offset);
  return `line ${line}, column ${column}`;
}

/** Checks that hold for every body: UTF-8, no DOCTYPE or ENTITY, only predefined entities, allowed characters. */
function checkBytes(body: Uint8Array, docs: string): void {
  if (body.length === 0) throw new DtsError(400, "The request has no body: a TEI document is expected.");
  if ((body[0] === 0xfe && body[1] === 0xff) || (body[0] === 0xff && body[1] === 0xfe)) {
    throw new DtsError(400, "The body is UTF-16: send it in UTF-8.");
  }
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new DtsError(400, `The body is not valid UTF-8: send it in UTF-8 (${firstInvalidUtf8(body)}).`);
  }
  const decl = /^\uFEFF?<\?xml\s[^?]*?encoding\s*=\s*["']([^"']+)["']/.exec(text);
  if (decl && decl[1].toLowerCase() !== "utf-8" && decl[1].toLowerCase() !== "utf8") {
    throw new DtsError(400, `The XML declaration names the encoding "${decl[1]}": bodies are read as UTF-8 only.`);
  }
  for (const word of ["<!DOCTYPE", "<!ENTITY"]) {
    const i = indexOf(body, word);
    if (i >= 0) {
      throw new DtsError(
        400,
        `The body holds a ${word.slice(2)} declaration (${placeInBody(body, i)}): DOCTYPE and entity declarations are not accepted, and no entity is ever expanded. Write characters as themselves or as character references (&#x…;). See ${docs}#bodies.`,
      );
    }
  }
  // Control characters XML does not allow, and entity references other than the predefined ones.
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === 0x3c && body[i + 1] === 0x21 && body[i + 2] === 0x2d && body[i + 3] === 0x2d) {
      const close = indexOf(body, "-->", i + 4);
      if (close < 0) break; // the scanner reports it
      i = close + 3;
      continue;
    }
    if (c === 0x3c && body[i + 1] === 0x21 && body[i + 2] === 0x5b) {
      const close = indexOf(body, "]]>", i + 3);
      if (close < 0) break;
      i = close + 3;
      continue;
    }
    if (c === 0x3c && body[i + 1] === 0x3f) {
      const close = indexOf(body, "?>", i + 2);
      if (close < 0) break;
      i = close + 2;
      continue;
    }
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
      throw new DtsError(
        400,
        `The body is not well-formed XML: ${placeInBody(body, i)}: control character U+${c.toString(16).padStart(4, "0").toUpperCase()} is not allowed in XML.`,
      );
    }
    if (c === 0x26) checkReference(body, i, docs);
    i++;
  }
}

const PREDEFINED = new Set(["amp", "lt", "gt", "quot", "apos"]);

function checkReference(body: Uint8Array, i: number, docs: string): void {
  let j = i + 1;
  while (j < body.length && j - i < 40 && body[j] !== 0x3b && body[j] !== 0x26 && body[j] !== 0x3c && body[j] > 0x20) j++;
  const name = body[j] === 0x3b ? new TextDecoder().decode(body.subarray(i + 1, j)) : null;
  if (name === null) {
    throw new DtsError(
      400,
      `The body is not well-formed XML: ${placeInBody(body, i)}: "&" must start an entity or character reference (write it as &amp;).`,
    );
  }
  if (name.startsWith("#")) {
    const code = /^#x[0-9a-fA-F]+$/.test(name) ? parseInt(name.slice(2), 16) : /^#[0-9]+$/.test(name) ? parseInt(name.slice(1), 10) : NaN;
    if (!isXmlChar(code))
      throw new DtsError(400, `The body is not well-formed XML: ${placeInBody(body, i)}: &${name}; is not a character XML allows.`);
    return;
  }
  if (!PREDEFINED.has(name)) {
    throw new DtsError(
      400,
      `The body uses the entity &${name}; (${placeInBody(body, i)}): only the predefined entities (&amp; &lt; &gt; &quot; &apos;) and character references are accepted, since no DOCTYPE may declare others. See ${docs}#bodies.`,
    );
  }
}

function isXmlChar(c: number): boolean {
  return (
    c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff)
  );
}

function firstInvalidUtf8(body: Uint8Array): string {
  // Binary search for the longest valid prefix; the next byte is the culprit.
  let lo = 0;
  let hi = body.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(body.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  // A streaming decoder holds a character cut short as pending, not wrong: the bad byte is then
  // that character's first byte, not the one after it.
  let lead = lo - 1;
  while (lead >= 0 && lead > lo - 4 && (body[lead] & 0xc0) === 0x80) lead--;
  if (lead >= 0 && body[lead] >= 0xc0) {
    const length = body[lead] >= 0xf0 ? 4 : body[lead] >= 0xe0 ? 3 : 2;
    if (lo - lead < length) lo = lead;
  }
  return `first bad byte at ${placeInBody(body, lo)}`;
}

function indexOf(buf: Uint8Array, text: string, from = 0): number {
  const needle = Buffer.from(text, "latin1");
  return Buffer.from(buf.buffer, buf.byteOffset, buf.length).indexOf(needle, from);
}

function scan(body: Uint8Array, docs: string, handler: Parameters<typeof scanXml>[1]): void {
  try {
    scanXml(body, handler);
  } catch (e) {
    if (e instanceof XmlDepthError)
      throw new DtsError(422, `The body cannot be accepted: line ${e.line}, column ${e.column}: ${e.reason}. See ${docs}#depth.`);
    if (e instanceof XmlSyntaxError)
      throw new DtsError(400, `The body is not well-formed XML: line ${e.line}, column ${e.column}: ${e.reason}.`);
    throw e;
  }
}

function checkRoot(tag: OpenTag, expected: string): void {
  if (tag.local !== "TEI" || tag.uri !== TEI_NS) {
    const ns = tag.uri ? `in the namespace ${tag.uri}` : "in no namespace";
    throw new DtsError(400, `The body's root element is <${tag.qname}> ${ns}: ${expected}`);
  }
}

/** A whole TEI document (the initial form of POST): root `TEI` in the TEI namespace, no `dts:fragment`. */
export function parseWholeBody(body: Uint8Array, docs: string): Uint8Array {
  checkBytes(body, docs);
  scan(body, docs, {
    open(tag, depth) {
      checkInert(tag, body, docs);
      if (depth === 0) checkRoot(tag, `the initial form of POST expects a whole document, <TEI xmlns="${TEI_NS}">.`);
      if (tag.local === "fragment" && tag.uri === DTS_NS) {
        throw new DtsError(
          400,
          `The body holds a dts:fragment (${placeInBody(body, tag.start)}): without after or before, POST creates the document's first text and expects the whole TEI document, without dts:fragment. To add a passage, give after or before.`,
        );
      }
    },
    close() {},
  });
  return body;
}

/**
 * A `TEI` root holding one `dts:fragment` (a child of the root) whose elements are the new or
 * replacing passage(s). Whitespace, comments and processing instructions may lie between
 * them; text may not.
 */
export function parseFragmentBody(body: Uint8Array, purpose: string, docs: string): FragmentBody {
  checkBytes(body, docs);
  const items: FragmentItem[] = [];
  const ancestors: Map<string, string>[] = [];
  let context: Map<string, string> | null = null;
  let fragmentDepth = -1;
  let fragmentTag: OpenTag | null = null;
  let fragmentCloseStart = -1;
  let fragments = 0;
  const free = new Set<string>();
  // Declarations made inside the submitted elements, per depth.
  const inner: (Set<string> | null)[] = [];

  const declared = (depth: number, prefix: string): boolean => {
    for (let d = fragmentDepth + 1; d <= depth; d++) if (inner[d]?.has(prefix)) return true;
    return false;
  };

  scan(body, docs, {
    open(tag, depth) {
      checkInert(tag, body, docs);
      if (depth === 0) checkRoot(tag, `${purpose} expects <TEI xmlns="${TEI_NS}"> holding a <dts:fragment xmlns:dts="${DTS_NS}">.`);
      const decls = new Map<string, string>();
      for (const a of tag.attributes) {
        if (a.name === "xmlns") decls.set("", a.value);
        else if (a.name.startsWith("xmlns:")) decls.set(a.name.slice(6), a.value);
      }
      ancestors[depth] = decls;
      if (tag.local === "fragment" && tag.uri === DTS_NS) {
        fragments++;
        if (fragments > 1)
          throw new DtsError(
            400,
            `The body holds a second dts:fragment (${placeInBody(body, tag.start)}): one request changes one passage or one contiguous run of passages.`,
          );
        if (depth !== 1) throw new DtsError(400, `dts:fragment (${placeInBody(body, tag.start)}) must be a child of the TEI root.`);
        fragmentDepth = depth;
        fragmentTag = tag;
        context = new Map([["xml", XML_NS]]);
        for (let d = 0; d <= depth; d++) for (const [p, u] of ancestors[d]) context.set(p, u);
        return;
      }
      if (fragmentDepth < 0 || depth <= fragmentDepth) return;
      if (depth === fragmentDepth + 1) items.push({ kind: "element", start: tag.start, end: -1, tag, sameKind: [] });
      else {
        const top = items[items.length - 1];
        if (tag.local === top.tag!.local && tag.uri === top.tag!.uri) top.sameKind.push(tag);
      }
      inner[depth] = decls.size ? new Set(decls.keys()) : null;
      const colon = tag.qname.indexOf(":");
      const prefix = colon < 0 ? "" : tag.qname.slice(0, colon);
      if (prefix !== "xml" && !declared(depth, prefix)) free.add(prefix);
      for (const a of tag.attributes) {
        const c = a.name.indexOf(":");
        if (c < 0 || a.name.startsWith("xmlns:")) continue;
        const p = a.name.slice(0, c);
        if (p !== "xml" && !declared(depth, p)) free.add(p);
      }
    },
    close(tag, start, end, depth) {
      if (tag === fragmentTag) {
        fragmentCloseStart = tag.selfClosing ? end : start;
        fragmentDepth = -2; // closed: later elements are outside
      } else if (fragmentDepth >= 0 && depth === fragmentDepth + 1) {
        items[items.length - 1].end = end;
      }
    },
  });
  if (!fragmentTag || !context) {
    throw new DtsError(
      400,
      `The body has no <dts:fragment xmlns:dts="${DTS_NS}"> inside its TEI root: ${purpose} expects the passage inside one.`,
    );
  }
  const f = fragmentTag as OpenTag;
  // Between the elements: whitespace, comments and processing instructions only.
  const gaps: [number, number][] = [];
  let from = f.selfClosing ? f.startEnd : f.startEnd;
  for (const item of items) {
    gaps.push([from, item.start]);
    from = item.end;
  }
  gaps.push([from, fragmentCloseStart]);
  const others: FragmentItem[] = [];
  for (const [a, b] of gaps) {
    let i = a;
    while (i < b) {
      const c = body[i];
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
        i++;
      } else if (c === 0x3c && body[i + 1] === 0x21 && body[i + 2] === 0x2d) {
        const close = indexOf(body, "-->", i) + 3;
        others.push({ kind: "other", start: i, end: close, sameKind: [] });
        i = close;
      } else if (c === 0x3c && body[i + 1] === 0x3f) {
        const close = indexOf(body, "?>", i) + 2;
        others.push({ kind: "other", start: i, end: close, sameKind: [] });
        i = close;
      } else {
        throw new DtsError(
          400,
          `The body has text directly inside dts:fragment (${placeInBody(body, i)}): the fragment must hold only the passage element(s), with their text inside them.`,
        );
      }
    }
  }
  const all = [...items, ...others].sort((x, y) => x.start - y.start);
  return {
    body,
    items: all,
    elements: items as (FragmentItem & { tag: OpenTag })[],
    context,
    free,
  };
}

/** The line of a byte offset in a body, for messages. */
export function lineOf(buf: Uint8Array, offset: number): number {
  return lineColumn(buf, offset).line;
}
