// The reader: answers GET and HEAD from the built tree, and computes what the tree does not
// hold (ranges, grouped or paged navigation, errors) with the same renderers as the build.
// Runtime-neutral: it sees the tree only through TreeStorage.

import type { Hono } from "hono";
import type { Library } from "../builder/catalog.js";
import { CitedText } from "../builder/citation/cited-text.js";
import { DtsError } from "../builder/error.js";
import { renderCollection } from "../builder/render/collection.js";
import { renderDocument, unknownDocument, withoutText } from "../builder/render/document.js";
import { noDocument, noEndpoint } from "../builder/render/messages.js";
import { renderNavigation } from "../builder/render/navigation.js";
import { type DtsResponse, endpointError, jsonError, renderError } from "../builder/render/response.js";
import { type DocumentMethod, renderContext, renderDocs, renderEntry } from "../builder/render/service.js";
import { renderV1Collection } from "../builder/render/v1/collection.js";
import { renderV1Document, v1DocumentLink } from "../builder/render/v1/document.js";
import { renderV1Entry } from "../builder/render/v1/entry.js";
import { renderV1Navigation } from "../builder/render/v1/navigation.js";
import { type BadRequest, type DtsRequest, endpointOf, parseRequest, readRequest } from "../builder/request.js";
import { contextIsRelative, type Site } from "../builder/site.js";
import {
  CATALOG_FILE,
  documentFolder,
  GENERATION_FILE,
  INDEX_FILE,
  MANIFEST,
  navigationFolder,
  requestToPath,
  splitTreePath,
  treePath,
  WHOLE_DOCUMENT,
} from "../builder/tree/layout.js";
import {
  entryIn,
  type FolderManifest,
  locate,
  type PackedEntries,
  type PackedEntry,
  parseBlock,
  parseManifest,
} from "../builder/tree/packed-folder.js";
import { indexFromJson, libraryFromJson } from "../builder/tree/stored-data.js";
import type { V1Request } from "../builder/v1/request.js";
import { staticPath } from "../builder/v1/static-paths.js";
import { CORS_HEADERS, JSONLD_TYPE, TEI_TYPE } from "../builder/wire.js";
import { allowedMethods, type MethodPolicy, preflightHeaders, READ_ONLY } from "./cors.js";
import { contentTag, strongTag } from "./etag.js";
import { Lru } from "./lru.js";
import { acceptedEncodings, type Encoding, hasPrecompressed, readPrecompressed, SIBLING_SUFFIX } from "./precompressed.js";
import { readRange, type TreeStorage } from "./storage.js";
import { apiApp, DYNAMIC_CACHE_CONTROL, toResponse } from "./to-response.js";

export interface ReaderOptions {
  site: Site;
  storage: TreeStorage;
  /** Methods of the Document endpoint besides GET that another handler serves. */
  methods?: DocumentMethod[];
  /** How many manifests to keep in memory (default 64). */
  cacheSize?: number;
  /** The bytes of parsed documents to keep in memory (default TEXT_CACHE_BYTES). */
  textCacheBytes?: number;
  /**
   * Cache-Control of responses read from the tree (default STATIC_CACHE_CONTROL). A server
   * whose tree changes under it (writes, watch) sends "no-cache": clients revalidate with the ETag.
   */
  cacheControl?: string;
}

const GENERATION_CHECK_MS = 1000;

/** What a manifest file holds: a folder's manifest, or a block of one. */
interface FolderIndex {
  manifest?: FolderManifest;
  block?: PackedEntries;
}

export type StoredHit = { response: DtsResponse; etag?: string; encoding?: string; vary?: boolean };

/**
 * The bounds of the two caches of answers and documents. V8 holds about twice what is live, so
 * each MB here is some 2 MB of the server's memory: on the 10x synthetic tree under a mixed load,
 * 64 + 48 MB took the server to 550 MB; 24 + 24 MB to 270 MB, at the same speed (issue 14).
 */
const RESPONSE_CACHE_BYTES = 24 * 1024 * 1024;
/**
 * Parsed documents kept for computed answers (ranges, navigation the tree does not hold), bounded
 * by their bytes, not their number: 64 of latinLit's largest would hold hundreds of MB. Half the
 * bound for one, so the largest documents (5 MB and their index) are kept too.
 */
const TEXT_CACHE_BYTES = 24 * 1024 * 1024;
/** What a document counts while it is read (it holds nothing yet, but its id); then its source and index sizes. */
const TEXT_PENDING_COST = 1024;

/** A parsed document being read or read, and what it counts against TEXT_CACHE_BYTES. */
interface CachedText {
  text: Promise<CitedText | null>;
  cost: number;
}
/** What an entry costs besides its body and key: the map slot, the hit and its strings, roughly. */
const ENTRY_OVERHEAD = 512;

/** The bytes an entry counts against the bound: its key (two bytes a character), body and overhead. */
function entrySize(key: string, hit: StoredHit): number {
  return key.length * 2 + hit.response.body.length + (hit.response.link?.length ?? 0) * 2 + ENTRY_OVERHEAD;
}

export class TreeReader {
  private library: Promise<Library> | null = null;
  /** Each folder's manifest, and the blocks of packed ones (keyed by their path). */
  private readonly manifests: Lru<Promise<FolderIndex | null>>;
  private readonly texts: Lru<CachedText>;
  /** Stored responses kept in memory, bounded by their bytes: most requests then touch no file. */
  private readonly responses = new Lru<StoredHit>(RESPONSE_CACHE_BYTES, entrySize, RESPONSE_CACHE_BYTES / 16);

  constructor(private readonly options: ReaderOptions) {
    this.manifests = new Lru(options.cacheSize ?? 64);
    const textBytes = options.textCacheBytes ?? TEXT_CACHE_BYTES;
    this.texts = new Lru<CachedText>(textBytes, (_, t) => t.cost, textBytes / 2);
  }

  /** Forgets what was read, after the tree changed. */
  invalidate(): void {
    this.library = null;
    this.manifests.clear();
    this.texts.clear();
    this.responses.clear();
  }

  /**
   * Forgets what was read of one document, after it was rebuilt: its source, index and document
   * manifest (a rebuild packs changed passages anew), and unless the rebuild kept them, its
   * navigation manifest and the catalogue.
   */
  invalidateDocument(id: string, kept: { navigation?: boolean; catalog?: boolean } = {}): void {
    this.texts.delete(id);
    // Writes are rare beside reads: forgetting every cached response keeps this simple.
    this.responses.clear();
    if (!kept.catalog) this.library = null;
    this.manifests.delete(documentFolder(id));
    this.manifests.delete(`v1/${documentFolder(id)}`);
    if (!kept.navigation) {
      this.manifests.delete(navigationFolder(id));
      this.manifests.delete(`v1/${navigationFolder(id)}`);
    }
  }

  get site(): Site {
    return this.options.site;
  }

  /** The stored responses kept in memory: how many, and the bytes their bound counts. */
  get cacheStats(): { entries: number; bytes: number } {
    const { entries, cost } = this.responses.stats;
    return { entries, bytes: cost };
  }

  /** The parsed documents kept in memory: how many, and the bytes their bound counts. */
  get textCacheStats(): { entries: number; bytes: number } {
    const { entries, cost } = this.texts.stats;
    return { entries, bytes: cost };
  }

  private generation: string | null = null;
  private checkedAt = 0;

  /**
   * Drops the caches when the tree changed under this reader (a `dts build` or `dts watch`
   * in another process), looking at most once a second.
   */
  private async checkGeneration(): Promise<void> {
    const now = Date.now();
    if (now - this.checkedAt < GENERATION_CHECK_MS) return;
    this.checkedAt = now;
    const file = await this.options.storage.read(GENERATION_FILE);
    const generation = file ? new TextDecoder().decode(file.body) : "";
    if (this.generation !== null && generation !== this.generation) this.invalidate();
    this.generation = generation;
  }

  async answer(url: URL, headers: Headers): Promise<Response> {
    await this.checkGeneration();
    const site = this.options.site;
    const req = parseRequest(url, site);
    const origin = url.origin;
    if (req === null) {
      return this.send(jsonError(site, 404, noEndpoint(url.pathname, site)), headers, origin);
    }
    if (req.kind === "bad") return this.send(badRequest(site, req), headers, origin);
    if (isV1(req)) return this.answerV1(req, url, headers);
    const path = requestToPath(req);
    if (path !== null) {
      const stored = await this.fromTree(path, headers);
      if (stored) return this.sendStored(stored, headers, origin);
    }
    return this.sendComputed(req, await this.compute(req), headers, origin);
  }

  private sendStored(stored: StoredHit, headers: Headers, origin: string): Response {
    const o = this.storedOptions(stored);
    return this.send(stored.response, headers, origin, o.etag, o.cacheControl, o.headers);
  }

  /** How a stored answer is sent: its tag, the tree's cache policy, and its own headers. */
  storedOptions(stored: StoredHit): { etag?: string; cacheControl?: string; headers: Record<string, string> } {
    // The representation depends on Accept-Encoding wherever siblings may exist.
    const headers = {
      ...(stored.vary ? { Vary: "Accept-Encoding" } : {}),
      ...(stored.encoding ? { "Content-Encoding": stored.encoding } : {}),
    };
    return { etag: stored.etag, cacheControl: this.options.cacheControl, headers };
  }

  /**
   * The key in memory of the stored answer to a GET of `pathname` and `search` with that
   * Accept-Encoding, or null when no stored answer is one (computed, 1.0 of another tree, refused). The
   * same for a URL whatever the tree holds: a server may remember it per URL.
   */
  memoryKey(pathname: string, search: string, acceptEncoding: string | null): string | null {
    const site = this.options.site;
    const req = readRequest(pathname, search, site);
    if (req === null || req.kind === "bad") return null;
    // A 1.0 answer is a stored one (answerV1) only in a packed tree with its site URL.
    if (isV1(req) && (site.siteUrl === undefined || site.staticPaths)) return null;
    const path = requestToPath(req);
    return path === null ? null : cacheKey(path, acceptEncoding);
  }

  /**
   * The stored answer under `key` when it is already in memory and nothing must be awaited (the
   * tree's generation was looked at within the second): what the Node fast path sends. Null
   * sends the request the full way.
   */
  memoryHit(key: string): StoredHit | null {
    if (Date.now() - this.checkedAt >= GENERATION_CHECK_MS) return null;
    return this.responses.get(key) ?? null;
  }

  private async sendComputed(req: DtsRequest, computed: DtsResponse, headers: Headers, origin: string): Promise<Response> {
    // Every Document answer carries a strong tag, for the write API's If-Match; 1.0 answers too.
    const tagged = (req.kind === "document" || isV1(req)) && computed.status === 200;
    return this.send(computed, headers, origin, tagged ? await contentTag(computed.body) : undefined, DYNAMIC_CACHE_CONTROL);
  }

  /**
   * A DTS 1.0 request: from the tree when its site URL is known (packed, or the static profile's
   * plain file), else computed with this request's origin as the site URL, so that the templates
   * a client expands come back to this server.
   */
  private async answerV1(req: V1Request, url: URL, headers: Headers): Promise<Response> {
    const site = this.options.site;
    const origin = url.origin;
    if (site.siteUrl === undefined) return this.sendComputed(req, await this.compute(req, { ...site, siteUrl: origin }), headers, origin);
    if (site.staticPaths) {
      const file = staticPath(site, req);
      const stored = file === null ? null : await this.options.storage.read(file);
      if (stored) {
        const response: DtsResponse = {
          status: 200,
          type: req.kind === "v1-document" ? TEI_TYPE : JSONLD_TYPE,
          link: req.kind === "v1-document" ? v1DocumentLink(site, req.resource) : "",
          body: stored.body,
        };
        return this.send(response, headers, origin, await strongTag(stored.etag, stored.body));
      }
    } else {
      const path = requestToPath(req);
      const stored = path === null ? null : await this.fromTree(path, headers);
      if (stored) return this.sendStored(stored, headers, origin);
    }
    return this.sendComputed(req, await this.compute(req), headers, origin);
  }

  /**
   * Every ETag a client may hold for the current answer to a GET of `url` (the file and its
   * precompressed siblings, as nginx or this reader sends them; or the computed answer's), or
   * none when that answer is not a 200.
   */
  async currentTags(url: URL): Promise<string[]> {
    const req = parseRequest(url, this.options.site);
    if (req === null || req.kind === "bad") return [];
    const path = requestToPath(req);
    const { folder, name } = path === null ? { folder: "", name: "" } : splitTreePath(path);
    const entry = path === null ? null : await this.entry(folder, name);
    if (entry) {
      if (entry.status !== 200) return [];
      const storage = this.options.storage;
      const encodings = Object.keys(SIBLING_SUFFIX) as Encoding[];
      const file = treePath(folder, entry.file);
      const siblings =
        entry.offset === 0 && hasPrecompressed(storage) ? await Promise.all(encodings.map((e) => storage.readEncoded(file, e))) : [];
      const tags = await Promise.all(siblings.map((f) => (f ? strongTag(f.etag, f.body) : null)));
      return [entry.etag, ...tags.filter((t) => t !== null)];
    }
    const computed = await this.compute(req);
    return computed.status === 200 ? [await contentTag(computed.body)] : [];
  }

  private async fromTree(path: string, headers: Headers): Promise<StoredHit | null> {
    const key = cacheKey(path, headers.get("Accept-Encoding"));
    const cached = this.responses.get(key);
    if (cached) return cached;
    const epoch = this.responses.epoch;
    const hit = await this.readStored(path, headers);
    if (hit && epoch === this.responses.epoch) this.responses.set(key, hit);
    return hit;
  }

  private async readStored(path: string, headers: Headers): Promise<StoredHit | null> {
    const { folder, name } = splitTreePath(path);
    const entry = await this.entry(folder, name);
    if (!entry) return null;
    const storage = this.options.storage;
    const file = treePath(folder, entry.file);
    const head = { status: entry.status, type: entry.type, link: entry.link };
    // A body alone in its file (offset 0: large bodies are) may have precompressed siblings;
    // not sent for JSON-LD whose context the server completes (withContextOrigin edits the bytes).
    const completed = entry.type === JSONLD_TYPE && contextIsRelative(this.options.site);
    const encoded =
      entry.offset === 0 && !completed && hasPrecompressed(storage)
        ? await readPrecompressed(storage, file, headers.get("Accept-Encoding"))
        : null;
    if (encoded) {
      const body = encoded.file.body;
      return { response: { ...head, body }, etag: await strongTag(encoded.file.etag, body), encoding: encoded.encoding, vary: true };
    }
    const body = await readRange(storage, file, entry.offset, entry.length);
    if (!body) return null;
    return { response: { ...head, body }, etag: entry.etag, vary: hasPrecompressed(storage) };
  }

  /** A stored response's entry in its folder's manifest (builder/tree/packed-folder.ts), or null. */
  private async entry(folder: string, name: string): Promise<PackedEntry | null> {
    const manifest = (await this.manifest(folder))?.manifest;
    const where = manifest ? locate(manifest, name) : null;
    if (!where) return null;
    return "entry" in where ? where.entry : entryIn((await this.manifest(folder, where.block))?.block ?? {}, name);
  }

  /** A folder's manifest, or, given `block`, that block of it. */
  private manifest(folder: string, block?: string): Promise<FolderIndex | null> {
    // Blocks are keyed apart: a folder's name may itself end like a block's file name.
    const key = block ? `${folder}\n${block}` : folder;
    let m = this.manifests.get(key);
    if (!m) {
      const path = treePath(folder, block ?? MANIFEST);
      m = this.options.storage.read(path).then((f) => {
        if (!f) return null;
        const text = new TextDecoder().decode(f.body);
        if (block) {
          const entries = parseBlock(text);
          if (!entries) throw new Error(`${path} is not a manifest block this version reads: rebuild the tree with \`dts build\``);
          return { block: entries };
        }
        const manifest = parseManifest(text);
        if (!manifest) throw new Error(`${path} is not a manifest this version reads: rebuild the tree with \`dts build\``);
        return { manifest };
      });
      this.manifests.set(key, m);
    }
    return m;
  }

  loadLibrary(): Promise<Library> {
    this.library ??= this.options.storage.read(CATALOG_FILE).then((f) => {
      if (!f) throw new Error(`the tree has no ${CATALOG_FILE}: build it with \`dts build\``);
      return libraryFromJson(new TextDecoder().decode(f.body));
    });
    return this.library;
  }

  /** A document's source and index, or null when it has none in the tree. */
  loadText(id: string): Promise<CitedText | null> {
    const known = this.texts.get(id);
    if (known) return known.text;
    const folder = documentFolder(id);
    const source = this.entry(folder, WHOLE_DOCUMENT).then((e) =>
      e ? readRange(this.options.storage, treePath(folder, e.file), e.offset, e.length) : null,
    );
    const cached: CachedText = { text: Promise.resolve(null), cost: TEXT_PENDING_COST + 2 * id.length };
    cached.text = Promise.all([this.options.storage.read(`${folder}/${INDEX_FILE}`), source]).then(([index, body]) => {
      // No text (an unknown id, any a client may send): nothing is kept for it.
      if (!index || !body) {
        if (this.texts.get(id) === cached) this.texts.delete(id);
        return null;
      }
      // Counted as read: the source, and the index at about twice its JSON (objects, strings, the ref map).
      if (this.texts.get(id) === cached) this.texts.set(id, { text: cached.text, cost: body.length + 2 * index.body.length });
      return new CitedText(id, indexFromJson(new TextDecoder().decode(index.body)), body);
    });
    this.texts.set(id, cached);
    return cached.text;
  }

  /** A document's text, or the answer (in the endpoint's format) that says why it has none. */
  private async textOf(site: Site, id: string, kind: "document" | "navigation"): Promise<CitedText | DtsResponse> {
    // A document with text has its index in the tree: the catalogue (16 MB of objects at 10x
    // latinLit) is read only to say why there is none.
    const indexed = await this.loadText(id);
    if (indexed) return indexed;
    const library = await this.loadLibrary();
    const node = library.nodes.get(id);
    if (node?.kind !== "resource") return kind === "document" ? unknownDocument(site, id) : jsonError(site, 404, noDocument(id));
    return withoutText(site, kind, id, library.texts.get(id)?.unreadable);
  }

  /** The response to a request the tree does not hold. */
  async compute(req: DtsRequest, site: Site = this.options.site): Promise<DtsResponse> {
    switch (req.kind) {
      case "v1-entry":
        return renderV1Entry(site);
      case "v1-collection":
        return renderV1Collection(site, req, await this.loadLibrary());
      case "v1-document":
      case "v1-navigation": {
        const text = await this.textOf(site, req.resource, req.kind === "v1-document" ? "document" : "navigation");
        if (!(text instanceof CitedText)) return text;
        return req.kind === "v1-document" ? renderV1Document(site, req, text) : renderV1Navigation(site, req, text);
      }
      case "entry":
        return renderEntry(site);
      case "docs":
        return renderDocs(site, ["GET", ...(this.options.methods ?? [])]);
      case "context":
        return renderContext(site);
      case "collection":
        return renderCollection(site, req, await this.loadLibrary());
      case "document":
      case "navigation": {
        const text = await this.textOf(site, req.id, req.kind);
        if (!(text instanceof CitedText)) return text;
        return req.kind === "document" ? renderDocument(site, req, text) : renderNavigation(site, req, text);
      }
    }
  }

  /** A response of this tree, its context made absolute under `origin` where it is not: stored ones with the tree's cache policy. */
  private send(
    response: DtsResponse,
    requestHeaders: Headers,
    origin: string,
    etag?: string,
    cacheControl?: string,
    headers?: Record<string, string>,
  ): Response {
    const context = { site: this.options.site, origin };
    return toResponse(response, { requestHeaders, etag, cacheControl: cacheControl ?? this.options.cacheControl, headers, context });
  }
}

const isV1 = (req: DtsRequest): req is V1Request => req.kind.startsWith("v1-");

/**
 * A stored answer's key in memory: its path and the encodings the client accepts (at most four
 * sets), never the raw header: distinct Accept-Encoding values must not each make an entry.
 */
const cacheKey = (path: string, acceptEncoding: string | null): string => `${path}\n${acceptedEncodings(acceptEncoding).join(",")}`;

function badRequest(site: Site, bad: BadRequest): DtsResponse {
  return renderError(site, bad.endpoint, bad);
}

/**
 * The Hono app of the reader: GET and HEAD on every route, CORS preflight, 405 otherwise
 * (with the methods `policy` says each resource accepts).
 */
export function readerApp(reader: TreeReader, app: Hono = apiApp(), policy: MethodPolicy = READ_ONLY): Hono {
  const site = reader.site;
  // The one place a read's error is answered, on every runtime: a DtsError as its endpoint says
  // errors, anything else as a 500 in the same format (never a stack trace). The write API
  // answers its own, to log each write with its status.
  app.onError((e, c) => {
    const endpoint = endpointOf(new URL(c.req.url).pathname, site);
    if (!(e instanceof DtsError)) console.error(`dts: ${c.req.method} ${new URL(c.req.url).pathname} failed: ${e.stack ?? e.message}`);
    const error = e instanceof DtsError ? e : new DtsError(500, "The server failed to answer this request; its log says why.");
    const context = { site, origin: new URL(c.req.url).origin };
    return toResponse(renderError(site, endpoint, error), { requestHeaders: c.req.raw.headers, headers: error.headers, context });
  });
  app.options("*", (c) => {
    const endpoint = endpointOf(new URL(c.req.url).pathname, site);
    return c.body(null, 204, { ...CORS_HEADERS, ...preflightHeaders(endpoint, policy, c.req.raw.headers) });
  });
  app.on(["GET", "HEAD"], "*", (c) => reader.answer(new URL(c.req.url), c.req.raw.headers));
  app.all("*", (c) => {
    const endpoint = endpointOf(new URL(c.req.url).pathname, site);
    const allowed = allowedMethods(endpoint, policy).join(", ");
    const description =
      `${c.req.method} is not supported here; allowed: ${allowed}.` +
      (endpoint === "document" && !policy.writes ? " Writes are enabled by `dts serve --corpus <dir>` with DTS_TOKEN set." : "");
    const context = { site, origin: new URL(c.req.url).origin };
    return toResponse(endpointError(site, endpoint, 405, description), {
      requestHeaders: c.req.raw.headers,
      headers: { Allow: allowed },
      context,
    });
  });
  return app;
}
