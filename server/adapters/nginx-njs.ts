// The reader as nginx's JavaScript module (njs 0.7, Debian's libnginx-mod-http-js) runs it:
// for a GET or HEAD, the stored response the tree holds, found with the same request reading,
// request-to-path mapping and manifest lookup as `dts serve` (builder/tree/lookup.ts) and sent
// with the same headers; anything else goes to `dts serve` (the `@dts_dynamic` location). So
// nginx's rules do not grow with the corpus: this file and a few locations.
//
// Bundled by tools/bundle-njs.mjs into one script of the JavaScript njs 0.7 reads (no classes,
// destructuring, spread, for-of, Map or Array.from), which `dts build --target nginx` copies
// beside the rules. The location sets `$dts_tree` to the tree's folder.

import type { Site } from "../../builder/site.js";
import { SITE_FILE, treePath } from "../../builder/tree/layout.js";
import { lookupStored } from "../../builder/tree/lookup.js";
import type { PackedEntry } from "../../builder/tree/packed-folder.js";
import { CORS_HEADERS, STATIC_CACHE_CONTROL } from "../../builder/wire.js";
import { fileTag } from "../etag.js";
import { acceptedEncodings, type Encoding, SIBLING_SUFFIX } from "../precompressed.js";

/** The parts of njs's request object this uses. */
interface NjsRequest {
  method: string;
  variables: Record<string, string | undefined>;
  headersIn: Record<string, string | undefined>;
  headersOut: Record<string, string | undefined>;
  return(status: number, body?: string | Uint8Array): void;
  internalRedirect(location: string): void;
}

/** The parts of njs's `fs` module this uses (positional reads and stat, as Node's). */
interface NjsFs {
  readFileSync(path: string, encoding?: string): string | Uint8Array;
  openSync(path: string, flags: string): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
  statSync(path: string): { size: number; mtimeMs: number };
}

declare const require: (name: string) => unknown;

const DYNAMIC = "@dts_dynamic";

function readText(fs: NjsFs, path: string): string | null {
  try {
    return fs.readFileSync(path, "utf8") as string;
  } catch {
    return null;
  }
}

/** A file's bytes (a Buffer: njs decodes text ten times slower than it reads it), or null. */
function readBytes(fs: NjsFs, path: string): Uint8Array | null {
  try {
    return fs.readFileSync(path) as Uint8Array;
  } catch {
    return null;
  }
}

function readPart(fs: NjsFs, path: string, offset: number, length: number): Uint8Array | null {
  let fd: number;
  try {
    fd = fs.openSync(path, "r");
  } catch {
    return null;
  }
  try {
    // A Buffer: njs's readSync and return take no other byte array.
    const out = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const n = fs.readSync(fd, out, done, length - done, offset + done);
      if (n <= 0) return null;
      done += n;
    }
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

function statOr(fs: NjsFs, path: string): { size: number; mtimeMs: number } | null {
  try {
    return fs.statSync(path);
  } catch {
    return null;
  }
}

/** The body to send: the entry's bytes, or a precompressed sibling of a body alone in its file. */
function body(
  fs: NjsFs,
  file: string,
  entry: PackedEntry,
  acceptEncoding: string | undefined,
): { bytes: Uint8Array; etag: string; encoding?: Encoding } | null {
  if (entry.offset === 0) {
    const encodings = acceptedEncodings(acceptEncoding ?? null);
    for (let i = 0; i < encodings.length; i++) {
      const sibling = file + SIBLING_SUFFIX[encodings[i]];
      const own = statOr(fs, sibling);
      const plain = own && statOr(fs, file);
      // A sibling older than its file is stale (dts serve reads it the same way).
      if (!own || !plain || own.mtimeMs < plain.mtimeMs) continue;
      const bytes = readPart(fs, sibling, 0, own.size);
      if (bytes) return { bytes, etag: fileTag(own.mtimeMs, own.size), encoding: encodings[i] };
    }
  }
  const bytes = readPart(fs, file, entry.offset, entry.length);
  return bytes ? { bytes, etag: entry.etag } : null;
}

function answer(r: NjsRequest): void {
  const reply = read(r);
  if (reply === null) r.internalRedirect(DYNAMIC);
  else r.return(reply.status, reply.body);
}

/** What to send for `r` (headers set on it), or null when dts serve must answer. */
function read(r: NjsRequest): { status: number; body?: Uint8Array } | null {
  // biome-ignore lint/style/useNodejsImportProtocol: njs names its module "fs", with no "node:" scheme
  const fs = require("fs") as NjsFs;
  const tree = r.variables.dts_tree ?? "";
  const target = r.variables.request_uri ?? "";
  // Only what reads the same everywhere: a raw target of printable ASCII (other bytes: dts serve decides).
  if ((r.method !== "GET" && r.method !== "HEAD") || !tree || !/^[\x21-\x7e]*$/.test(target)) return null;
  const siteText = readText(fs, `${tree}/${SITE_FILE}`);
  let site: Site;
  try {
    site = JSON.parse(siteText ?? "") as Site;
  } catch {
    return null;
  }
  const q = target.indexOf("?");
  const found = lookupStored(q < 0 ? target : target.slice(0, q), q < 0 ? "" : target.slice(q), site, (path) =>
    readBytes(fs, `${tree}/${path}`),
  );
  if (found === null) return null;
  const entry = found.entry;
  const file = `${tree}/${treePath(found.folder, entry.file)}`;
  const sent = body(fs, file, entry, r.headersIn["Accept-Encoding"]);
  // A file gone since the manifest was read (a rebuild in between): dts serve answers.
  if (sent === null) return null;
  const out = r.headersOut;
  out["Content-Type"] = entry.type;
  out.Link = entry.link;
  for (const name in CORS_HEADERS) out[name] = CORS_HEADERS[name as keyof typeof CORS_HEADERS];
  out["Cache-Control"] = STATIC_CACHE_CONTROL;
  out.ETag = sent.etag;
  out.Vary = "Accept-Encoding";
  if (sent.encoding) out["Content-Encoding"] = sent.encoding;
  const match = r.headersIn["If-None-Match"];
  if (match !== undefined) {
    const tags = match.split(",");
    for (let i = 0; i < tags.length; i++) {
      const t = tags[i].trim();
      if (t === sent.etag || t === "*") {
        delete out["Content-Type"];
        delete out["Content-Encoding"];
        return { status: 304 };
      }
    }
  }
  return { status: entry.status, body: sent.bytes };
}

export default { answer };
