// The fast path of `dts serve` on Node: a GET or HEAD whose stored answer is already in memory
// (TreeReader.memoryHit) is written straight from it, with the status and headers answerParts
// decides (the same as the app's, written as the Hono adapter writes them), without the web
// Request and Response the app would build for it. Anything else, and any doubt, goes to the app.

import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from "node:http";
import type { DocumentLocks } from "../builder/build/locks.js";
import { contextIsRelative } from "../builder/site.js";
import { JSONLD_TYPE } from "../builder/wire.js";
import type { StoredHit, TreeReader } from "./reader.js";
import { type AnswerParts, answerParts } from "./to-response.js";

/**
 * A path and a query the app's URL parsing leaves as they are (no escapes it would add, no dot
 * segments it would resolve): only those are read here, so both read the same request.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@/]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
const PLAIN_QUERY = /^\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;

interface Wire {
  status: number;
  /** As the Hono Node adapter writes a web Response's headers: lowercase names, in Headers' (sorted) order. */
  head: OutgoingHttpHeaders;
  /** The same with the body's length, which the adapter adds when it has a body. */
  get: OutgoingHttpHeaders;
  body: Uint8Array | string | null;
}

/**
 * Each hit's wire forms when no If-None-Match asks otherwise, by the origin written into its
 * context ("" when none is): gone with the hit, a few origins each.
 */
const wires = new WeakMap<StoredHit, Map<string, Wire>>();
const ORIGINS_PER_HIT = 8;

/**
 * A Host header the URL parser leaves as it is (a lowercase name, a port other than 80): then
 * the origin the app sees is `http://` and it. Any other Host is answered by the app.
 */
const PLAIN_HOST = /^[a-z0-9.-]+(?::(?!80$)[0-9]{1,5})?$/;

function wireOf(parts: AnswerParts): Wire {
  const head: OutgoingHttpHeaders = {};
  const pairs = parts.headers.map(([name, value]) => [name.toLowerCase(), value] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  for (const [name, value] of pairs) head[name] = value;
  const { body } = parts;
  const length = body === null ? null : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  return { status: parts.status, head, get: length === null ? head : { ...head, "Content-Length": length }, body };
}

/**
 * Most request targets whose key in memory is remembered (past it, the memo starts again), and
 * the longest remembered (URL and Accept-Encoding): a client sending new long ones costs no memory.
 */
const MEMO_ENTRIES = 4096;
const MEMO_TARGET_CHARS = 512;

/** The listener, and how many requests it answered itself; `app` answers whatever it does not. */
export function memoryListener(
  reader: TreeReader,
  locks: DocumentLocks | undefined,
  app: RequestListener,
): { listener: RequestListener; answered: () => number } {
  let answered = 0;
  // Each target's key in memory (or null: none), so that a request seen before is not read again.
  const keys = new Map<string, string | null>();
  const keyOf = (req: IncomingMessage): string | null => {
    const acceptEncoding = req.headers["accept-encoding"] ?? null;
    const target = `${acceptEncoding ?? ""}\n${req.url ?? ""}`;
    let key = keys.get(target);
    if (key === undefined) {
      key = memoryKey(reader, req.url ?? "", acceptEncoding);
      if (target.length <= MEMO_TARGET_CHARS) {
        if (keys.size >= MEMO_ENTRIES) keys.clear();
        keys.set(target, key);
      }
    }
    return key;
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (answerFromMemory(reader, locks, keyOf, req, res)) answered++;
    else app(req, res);
  };
  return { listener, answered: () => answered };
}

/** The key in memory of a request target the app reads the same way (see PLAIN_PATH), or null. */
function memoryKey(reader: TreeReader, url: string, acceptEncoding: string | null): string | null {
  const q = url.indexOf("?");
  const pathname = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? "" : url.slice(q);
  if (!PLAIN_PATH.test(pathname) || DOT_SEGMENT.test(pathname) || (search !== "" && !PLAIN_QUERY.test(search))) return null;
  return reader.memoryKey(pathname, search, acceptEncoding);
}

function answerFromMemory(
  reader: TreeReader,
  locks: DocumentLocks | undefined,
  keyOf: (req: IncomingMessage) => string | null,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const method = req.method;
  if (method !== "GET" && method !== "HEAD") return false;
  // A write commits under the document's lock: then the app's reads wait for it.
  if (locks && !locks.idle) return false;
  const key = keyOf(req);
  const hit = key === null ? null : reader.memoryHit(key);
  if (!hit) return false;
  // A JSON-LD answer of a tree without --site-url gets the request's origin written in (context-origin.ts).
  const site = reader.site;
  let origin = "";
  if (hit.response.type === JSONLD_TYPE && contextIsRelative(site)) {
    const host = req.headers.host;
    if (host === undefined || !PLAIN_HOST.test(host)) return false;
    origin = `http://${host}`;
  }
  const ifNoneMatch = req.headers["if-none-match"];
  let forms = wires.get(hit);
  let wire = ifNoneMatch === undefined ? forms?.get(origin) : undefined;
  if (!wire) {
    const context = origin ? { site, origin } : undefined;
    wire = wireOf(answerParts(hit.response, { ...reader.storedOptions(hit), ifNoneMatch: ifNoneMatch ?? null, context }));
    if (ifNoneMatch === undefined) {
      if (!forms || forms.size >= ORIGINS_PER_HIT) wires.set(hit, (forms = new Map()));
      forms.set(origin, wire);
    }
  }
  if (method === "HEAD" || wire.body === null) {
    res.writeHead(wire.status, wire.head);
    res.end();
  } else {
    res.writeHead(wire.status, wire.get);
    res.end(wire.body);
  }
  return true;
}
