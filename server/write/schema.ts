// Which schema a document is validated against, and the validators: the server's `--schema`
// for every document, or else the document's own `<?xml-model?>` when it names a local RELAX
// NG file. Schemas are compiled once, on a worker thread when the code runs compiled (the
// server), on the calling thread from TypeScript sources (the test runner).

import { statSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { decodeEntities } from "../../builder/xml/scan.js";
import { MAX_SCHEMA_BYTES, SchemaEngine, type SchemaProblem } from "./schema-engine.js";

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
  /**
   * The folders an xml-model schema may come from (the corpus, and any the operator adds with
   * --schema-dir): a body names its own prolog, so what it names must be the operator's.
   */
  folders?: string[];
}

/**
 * The schema a document is validated against: a file (and the name to show for it, relative to
 * its folder, never a server path), or a refusal saying which rule the named schema breaks.
 */
export type SchemaChoice = { file: string; name: string } | { refused: string; name: string };

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
  schemaFor(source: Uint8Array, file: string): SchemaChoice | null {
    if (this.schema) return { file: this.schema, name: basename(this.schema) };
    if (this.options.xmlModel === false) return null;
    const href = xmlModelHref(source);
    return href === null ? null : allowedSchema(href, file, this.options.folders ?? [dirname(file)]);
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
 * The href of the document's `<?xml-model?>` that names a RELAX NG schema as a local file (a
 * path or a file: URL); remote schemas are not fetched.
 */
export function xmlModelHref(source: Uint8Array): string | null {
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
    return href;
  }
  return null;
}

/**
 * Resolves an xml-model href against the document's folder and applies the rules: inside one of
 * `folders`, an existing regular file, at most MAX_SCHEMA_BYTES.
 */
export function allowedSchema(href: string, file: string, folders: string[]): SchemaChoice {
  let path: string;
  try {
    path = href.startsWith("file:") ? fileURLToPath(href) : isAbsolute(href) ? resolve(href) : resolve(dirname(file), href);
  } catch {
    return { refused: "it is not a usable file: URL", name: href };
  }
  const folder = folders.map((f) => resolve(f)).find((f) => path === f || path.startsWith(f + sep));
  if (!folder) return { refused: "it is outside the corpus and the folders allowed for schemas (dts serve --schema-dir)", name: href };
  const name = relative(folder, path).split(sep).join("/");
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return { refused: "it does not exist", name };
  }
  if (!stat.isFile()) return { refused: "it is not a regular file", name };
  if (stat.size > MAX_SCHEMA_BYTES) return { refused: `it is larger than ${MAX_SCHEMA_BYTES / 1024 / 1024} MiB`, name };
  return { file: path, name };
}
