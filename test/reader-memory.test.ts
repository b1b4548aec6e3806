// The reader on its own, over a tree held in memory (no disk, no server): what a client sees of
// stored and computed answers, conditional requests, HEAD, encodings and errors.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { documentFolder, MANIFEST, WHOLE_DOCUMENT } from "../builder/tree/layout.js";
import { manifestText, parseManifest } from "../builder/tree/packed-folder.js";
import { memoryStorage } from "../server/adapters/memory-storage.js";
import { openTree } from "../server/open-tree.js";
import { CATULLUS, doc, nav } from "./helpers/embedded.js";
import { API_DOC_REL, EMBEDDED, storedText, treeFiles } from "./helpers/tree.js";

let work: string;
let files: Map<string, Uint8Array>;
let app: Hono;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "dts-reader-memory-"));
  await build({ corpus: EMBEDDED, out: join(work, "dist"), site: makeSite() });
  files = treeFiles(join(work, "dist"));
  app = await openTree(memoryStorage(files), "memory");
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const get = (path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> =>
  Promise.resolve(app.request(path, { method, headers }));

describe("the reader over a tree in memory", () => {
  it("answers a stored passage with its bytes, type, Link, CORS and a strong tag", async () => {
    const r = await get(doc(CATULLUS, "&ref=2"));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/tei+xml");
    expect(r.headers.get("link")).toContain(API_DOC_REL);
    expect(r.headers.get("link")).toContain('rel="next"');
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("etag")).toMatch(/^"[0-9a-f]+"$/);
    const stored = storedText(join(work, "dist"), `${documentFolder(CATULLUS)}/r.2.xml`)!;
    expect(stored).toContain('<l n="2">');
    expect(Buffer.from(await r.arrayBuffer()).toString("utf8")).toBe(stored);
  });

  it("answers If-None-Match with its tag by 304 without a body, and another tag in full", async () => {
    const tag = (await get(doc(CATULLUS, "&ref=2"))).headers.get("etag")!;
    const same = await get(doc(CATULLUS, "&ref=2"), { "If-None-Match": tag });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    expect(same.headers.get("content-type")).toBeNull();
    expect((await get(doc(CATULLUS, "&ref=2"), { "If-None-Match": '"other"' })).status).toBe(200);
  });

  it("answers HEAD with the GET's status and headers and no body", async () => {
    const [head, full] = await Promise.all([get(doc(CATULLUS, "&ref=2"), {}, "HEAD"), get(doc(CATULLUS, "&ref=2"))]);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const h of ["content-type", "link", "etag", "cache-control"]) expect(head.headers.get(h), h).toBe(full.headers.get(h));
  });

  it("sends a precompressed sibling to a client that accepts it, saying so, and the plain file to one that does not", async () => {
    // A whole document of 128 KiB or more is alone in its file, which then may have siblings; make Catullus's so.
    const folder = documentFolder(CATULLUS);
    const manifest = parseManifest(Buffer.from(files.get(`${folder}/${MANIFEST}`)!).toString("utf8"))!;
    const entry = manifest.entries![WHOLE_DOCUMENT];
    const path = `${folder}/_p.alone.0`;
    files.set(path, files.get(`${folder}/${entry.file}`)!.subarray(entry.offset, entry.offset + entry.length));
    manifest.entries![WHOLE_DOCUMENT] = { ...entry, file: "_p.alone.0", offset: 0 };
    files.set(`${folder}/${MANIFEST}`, Buffer.from(manifestText(manifest)));
    files.set(`${path}.gz`, gzipSync(files.get(path)!));
    // A reader that has not read the folder's manifest yet (one started after the build that wrote it).
    app = await openTree(memoryStorage(files), "memory");
    const zipped = await get(doc(CATULLUS), { "Accept-Encoding": "gzip" });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("Accept-Encoding");
    const plain = await get(doc(CATULLUS), { "Accept-Encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(Buffer.from(files.get(path)!))).toBe(true);
  });

  it("computes a range the tree does not hold, tagged and not cached as stored", async () => {
    const r = await get(doc(CATULLUS, "&start=2&end=3"));
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-cache");
    expect(r.headers.get("etag")).toMatch(/^"[0-9a-f]+"$/);
    const body = await r.text();
    expect(body).toContain('n="2"');
    expect(body).toContain('n="3"');
    expect(body).not.toContain('n="4"');
  });

  it("answers an unknown document in the Document endpoint's XML and an unknown navigation in Hydra JSON", async () => {
    const d = await get(doc("no-such-id"));
    expect(d.status).toBe(404);
    expect(d.headers.get("content-type")).toBe("application/tei+xml");
    expect(await d.text()).toContain('statusCode="404"');
    const n = await get(nav("no-such-id"));
    expect(n.status).toBe(404);
    expect(n.headers.get("content-type")).toBe("application/ld+json");
    expect(JSON.parse(await n.text())).toMatchObject({ "@type": "Status", statusCode: 404 });
  });

  it("answers what it cannot read (a corrupted catalogue) with a 500 in the endpoint's format, as on every runtime", async () => {
    const broken = new Map(files);
    broken.set("_catalog.json", new TextEncoder().encode("{ not json"));
    const other = await openTree(memoryStorage(broken), "memory");
    const r = await Promise.resolve(other.request("/api/dts/collection?id=nothing"));
    expect(r.status).toBe(500);
    expect(r.headers.get("content-type")).toBe("application/ld+json");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(JSON.parse(await r.text())).toMatchObject({ "@type": "Status", statusCode: 500 });
  });
});
