// RELAX NG validation with libxml2 (libxml2-wasm): a schema is compiled once (tei_all takes
// about 18 s) and kept; each validation then parses the document and checks it (tens of
// milliseconds). Used on a worker thread by SchemaValidators, or on the calling thread.

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ParseOption, RelaxNGValidator, XmlDocument, XmlLibError, xmlRegisterInputProvider } from "libxml2-wasm";

export interface SchemaProblem {
  line: number;
  column?: number;
  message: string;
  /** Where in the document, as libxml2 names it (`/TEI/text/body/div[2]`). */
  path?: string;
}

// Schemas may include or reference other local files (`<include href>`, `<externalRef>`).
let providerRegistered = false;
function registerLocalFiles(): void {
  if (providerRegistered) return;
  providerRegistered = true;
  const toPath = (name: string): string => (name.startsWith("file://") ? fileURLToPath(name) : name);
  xmlRegisterInputProvider({
    match: (name) => name.startsWith("/") || name.startsWith("file://"),
    open: (name) => {
      try {
        const fd = openSync(toPath(name), "r");
        // Included files too must be regular files (never a device that reads forever).
        if (fstatSync(fd).isFile()) return fd;
        closeSync(fd);
      } catch {
        // not readable: libxml2 reports it
      }
      return undefined;
    },
    read: (fd, buf) => {
      try {
        return readSync(fd as number, buf, 0, buf.byteLength, null);
      } catch {
        return -1;
      }
    },
    close: (fd) => {
      try {
        closeSync(fd as number);
        return true;
      } catch {
        return false;
      }
    },
  });
}

// No network, no entity substitution, no external DTD: documents are checked as written.
const PARSE = ParseOption.XML_PARSE_NONET;

export class SchemaEngine {
  private readonly compiled = new Map<string, RelaxNGValidator>();

  /** Compiles a schema file (once); throws with libxml2's message when it is not a usable schema. */
  compile(schema: string): void {
    if (this.compiled.has(schema)) return;
    registerLocalFiles();
    let doc: XmlDocument;
    try {
      doc = XmlDocument.fromBuffer(readAll(schema), { url: schema, option: PARSE });
    } catch (e) {
      throw new Error(`not a RELAX NG schema libxml2 can compile (it is not well-formed XML: ${describe(e)})`);
    }
    try {
      this.compiled.set(schema, RelaxNGValidator.fromDoc(doc));
    } catch (e) {
      throw new Error(`not a RELAX NG schema libxml2 can compile: ${describe(e)}`);
    } finally {
      doc.dispose();
    }
  }

  validate(schema: string, source: Uint8Array, url: string): SchemaProblem[] {
    this.compile(schema);
    let doc: XmlDocument;
    try {
      doc = XmlDocument.fromBuffer(source, { url, option: PARSE });
    } catch (e) {
      return problemsOf(e);
    }
    try {
      this.compiled.get(schema)!.validate(doc);
      return [];
    } catch (e) {
      return problemsOf(e);
    } finally {
      doc.dispose();
    }
  }

  dispose(): void {
    for (const v of this.compiled.values()) v.dispose();
    this.compiled.clear();
  }
}

/** Largest schema file read (tei_all.rng is about 1 MB): no device or huge file is read whole. */
export const MAX_SCHEMA_BYTES = 16 * 1024 * 1024;

function readAll(file: string): Uint8Array {
  const fd = openSync(file, "r");
  try {
    if (!fstatSync(fd).isFile()) throw new Error("not a regular file");
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      if (size > MAX_SCHEMA_BYTES) throw new Error(`larger than ${MAX_SCHEMA_BYTES} bytes`);
      const buf = Buffer.alloc(1 << 20);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      size += n;
      chunks.push(buf.subarray(0, n));
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

function problemsOf(e: unknown): SchemaProblem[] {
  if (e instanceof XmlLibError && e.details?.length) {
    return e.details.map((d) => ({
      line: d.line,
      ...(d.col ? { column: d.col } : {}),
      message: d.message.trim(),
      ...((d as { xpath?: string }).xpath ? { path: (d as { xpath?: string }).xpath } : {}),
    }));
  }
  return [{ line: 0, message: describe(e) }];
}

function describe(e: unknown): string {
  if (e instanceof XmlLibError && e.details?.length) return e.details.map((d) => `line ${d.line}: ${d.message.trim()}`).join("; ");
  return e instanceof Error ? e.message : String(e);
}
