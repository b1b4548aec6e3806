// A write server over a temporary copy of a corpus, for the write API's tests: the project's
// corpus/ is never written to.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeSite, type Site } from "../../builder/site.js";
import { type RunningServer, type ServeOptions, startServer } from "../../server/serve.js";
import { EMBEDDED } from "./tree.js";

export const TOKEN = "test-token-0123456789";
export const TEI_NS = "http://www.tei-c.org/ns/1.0";
export const DTS_NS = "https://w3id.org/dts/api#";

export interface WriteTree {
  work: string;
  corpus: string;
  dist: string;
  site: Site;
  server: RunningServer;
  log: string[];
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** A write with the token as Authorization: Bearer. */
  write(method: string, path: string, body?: string | Uint8Array): Promise<Response>;
  file(rel: string): string;
  close(): Promise<void>;
}

export async function writeTree(
  options: Partial<ServeOptions> & {
    source?: string;
    prepare?: (corpus: string) => void;
    /** A RELAX NG schema, written beside the corpus and given as --schema. */
    schemaText?: string;
  } = {},
): Promise<WriteTree> {
  const work = mkdtempSync(join(tmpdir(), "dts-write-"));
  const corpus = join(work, "corpus");
  const dist = join(work, "dist");
  cpSync(options.source ?? EMBEDDED, corpus, { recursive: true });
  options.prepare?.(corpus);
  let schema = options.schema;
  if (options.schemaText !== undefined) {
    schema = join(work, "schema.rng");
    writeFileSync(schema, options.schemaText);
  }
  const site = makeSite();
  const log: string[] = [];
  const server = await startServer({
    dist,
    site,
    port: 0,
    host: "127.0.0.1",
    corpus,
    token: TOKEN,
    log: (line) => log.push(line),
    ...options,
    schema,
  });
  return {
    work,
    corpus,
    dist,
    site,
    server,
    log,
    fetch: (path, init) => fetch(server.url + path, init),
    write: (method, path, body) =>
      fetch(server.url + path, {
        method,
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/tei+xml" },
        body: body as BodyInit | undefined,
      }),
    file: (rel) => readFileSync(join(corpus, rel), "utf8"),
    close: async () => {
      await server.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** A body holding one or more elements in dts:fragment. */
export function fragment(elements: string, rootAttributes = ""): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<TEI xmlns="${TEI_NS}"${rootAttributes}><dts:fragment xmlns:dts="${DTS_NS}">${elements}</dts:fragment></TEI>\n`;
}

/** The description of an XML error body. */
export async function errorOf(r: Response): Promise<{ status: number; description: string; body: string }> {
  const body = await r.text();
  const m = /<description>([\s\S]*?)<\/description>/.exec(body);
  const description = (m?.[1] ?? "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return { status: r.status, description, body };
}

/** Lines that differ between two texts of the same number of lines, or the line counts. */
export function changedLines(a: string, b: string): { changed: number; added: number; removed: number } {
  const x = a.split("\n");
  const y = b.split("\n");
  // Common prefix and suffix, then what is left on each side.
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  const removed = x.length - p - s;
  const added = y.length - p - s;
  return { changed: Math.min(removed, added), added: Math.max(0, added - removed), removed: Math.max(0, removed - added) };
}
