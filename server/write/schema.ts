// Which schema a document is validated against, and the validators: the server's `--schema`
// for every document, or else the document's own `<?xml-model?>` when it names a local RELAX
// NG file. Schemas are compiled once, on a worker thread when the code runs compiled (the
// server), on the calling thread from TypeScript sources (the test runner).

import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { decodeEntities } from "../../builder/xml/scan.js";
import { SchemaEngine, type SchemaProblem } from "./schema-engine.js";

export type { SchemaProblem };

const WORKER_FILE = import.meta.url.endsWith(".js") ? fileURLToPath(new URL("./schema-worker.js", import.meta.url)) : null;
const RNG_NS = "http://relaxng.org/ns/structure/1.0";

export interface SchemaOptions {
  /** A RELAX NG schema (.rng) for every document. */
  schema?: string;
  /** Use each document's own local xml-model schema when no `schema` is given (default true). */
  xmlModel?: boolean;
  /** Validate on the calling thread even when a worker could be used. */
  inThread?: boolean;
}

export class SchemaValidators {
  private workerState: Worker | null = null;
  private readonly useWorker: boolean;
  private readonly engine: SchemaEngine | null;
  private readonly pending = new Map<number, { resolve: (v: SchemaProblem[]) => void; reject: (e: Error) => void }>();
  private readonly compiling = new Map<string, Promise<void>>();
  private seq = 0;
  readonly schema?: string;

  constructor(private readonly options: SchemaOptions = {}) {
    this.schema = options.schema ? resolve(options.schema) : undefined;
    this.useWorker = WORKER_FILE !== null && !options.inThread;
    this.engine = this.useWorker ? null : new SchemaEngine();
  }

  /** The worker, started on first use (a server with no schema to apply never starts it). */
  private get worker(): Worker {
    if (this.workerState) return this.workerState;
    const worker = new Worker(WORKER_FILE!);
    worker.unref();
    worker.on("message", (m: { seq: number; result?: SchemaProblem[] | null; error?: string }) => {
      const p = this.pending.get(m.seq);
      if (!p) return;
      this.pending.delete(m.seq);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result ?? []);
    });
    worker.on("error", (e) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      this.workerState = null;
      this.compiling.clear();
    });
    return (this.workerState = worker);
  }

  /** Starts compiling the server-wide schema; resolves when it is ready (rejects if it cannot be compiled). */
  ready(): Promise<void> {
    return this.schema ? this.compile(this.schema) : Promise.resolve();
  }

  /** The schema a document is validated against, or null for none. */
  schemaFor(source: Uint8Array, file: string): string | null {
    if (this.schema) return this.schema;
    if (this.options.xmlModel === false) return null;
    return localXmlModel(source, file);
  }

  compile(schema: string): Promise<void> {
    let p = this.compiling.get(schema);
    if (!p) {
      p = this.engine
        ? new Promise<void>((done, fail) => {
            // Let the caller's code run first: the compile holds the thread.
            setImmediate(() => {
              try {
                this.engine!.compile(schema);
                done();
              } catch (e) {
                fail(e);
              }
            });
          })
        : this.call({ op: "compile", schema }).then(() => undefined);
      this.compiling.set(schema, p);
      p.catch(() => this.compiling.delete(schema));
    }
    return p;
  }

  async validate(schema: string, source: Uint8Array, url: string): Promise<SchemaProblem[]> {
    await this.compile(schema);
    if (this.engine) return this.engine.validate(schema, source, url);
    return this.call({ op: "validate", schema, source, url });
  }

  async close(): Promise<void> {
    this.engine?.dispose();
    await this.workerState?.terminate();
  }

  private call(message: Record<string, unknown>): Promise<SchemaProblem[]> {
    const seq = ++this.seq;
    return new Promise((resolvePromise, reject) => {
      this.pending.set(seq, { resolve: resolvePromise, reject });
      this.worker.postMessage({ ...message, seq });
    });
  }
}

/**
 * The document's `<?xml-model href="..."?>` when it names a RELAX NG schema that is a local
 * file (a relative path or a file: URL, resolved against the document's folder).
 */
export function localXmlModel(source: Uint8Array, file: string): string | null {
  // The processing instructions come before the root element.
  const head = new TextDecoder().decode(source.subarray(0, Math.min(source.length, 8192)));
  const root = head.search(/<[A-Za-z_]/);
  const prolog = root >= 0 ? head.slice(0, root) : head;
  for (const m of prolog.matchAll(/<\?xml-model\s([^?]*)\?>/g)) {
    const attrs = new Map<string, string>();
    for (const a of m[1].matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs.set(a[1], decodeEntities(a[2] ?? a[3] ?? ""));
    const href = attrs.get("href");
    if (!href) continue;
    const ns = attrs.get("schematypens");
    if (ns ? ns !== RNG_NS : !/\.rng$/i.test(href)) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("file:")) continue; // http(s): not fetched
    const path = href.startsWith("file:") ? fileURLToPath(href) : isAbsolute(href) ? href : resolve(dirname(file), href);
    if (existsSync(path)) return path;
  }
  return null;
}
