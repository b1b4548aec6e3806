// One suite over every storage the reader runs on (the local disk, a fetch-backed one as the
// Worker and the edge function use, and memory), as a storage library tests its drivers: the
// same tree, the same paths, the same answers.

import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { readFolder } from "../builder/tree/folder-store.js";
import { documentFolder } from "../builder/tree/layout.js";
import { diskStorage } from "../server/adapters/disk-storage.js";
import { fetchStorage } from "../server/adapters/fetch-storage.js";
import { memoryStorage } from "../server/adapters/memory-storage.js";
import { hasPrecompressed } from "../server/precompressed.js";
import { readRange, type TreeStorage } from "../server/storage.js";
import { CATULLUS } from "./helpers/embedded.js";
import { EMBEDDED, treeFiles } from "./helpers/tree.js";

let work: string;
let dist: string;
let http: Server;
let origin: string;
/** Requests the plain file server answered, by path. */
const served = new Map<string, number>();
const storages: [string, () => TreeStorage][] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "dts-storages-"));
  dist = join(work, "dist");
  await build({ corpus: EMBEDDED, out: dist, site: makeSite() });
  // A fresh sibling for one file, and a stale one (older than its file) for another.
  writeFileSync(join(dist, "_catalog.json.gz"), gzipSync(readFileSync(join(dist, "_catalog.json"))));
  const stale = join(dist, "_site.json.gz");
  writeFileSync(stale, gzipSync(readFileSync(join(dist, "_site.json"))));
  utimesSync(stale, new Date(2000, 0, 1), new Date(2000, 0, 1));
  // A plain file server over the tree, standing for a Worker's assets or a site's CDN.
  http = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.slice(1));
    served.set(path, (served.get(path) ?? 0) + 1);
    const full = join(dist, path);
    if (relative(dist, full).startsWith("..")) return void res.writeHead(404).end();
    let body: Buffer;
    try {
      body = readFileSync(full);
    } catch {
      return void res.writeHead(404).end();
    }
    res.writeHead(200).end(body);
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  const memory = treeFiles(dist);
  memory.delete("_site.json.gz");
  storages.push(
    ["disk", () => diskStorage(dist)],
    ["fetch", () => fetchStorage((path, headers) => fetch(`${origin}/${path}`, { headers }))],
    ["memory", () => memoryStorage(memory)],
  );
});

afterAll(async () => {
  await new Promise((done) => http?.close(done));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.each(["disk", "fetch", "memory"])("the %s storage", (name) => {
  const storage = (): TreeStorage => storages.find(([n]) => n === name)![1]();

  it("reads a file of the tree byte for byte, with a strong tag", async () => {
    for (const path of ["_catalog.json", `${documentFolder(CATULLUS)}/_index.json`, `${documentFolder(CATULLUS)}/_manifest.json`]) {
      const file = await storage().read(path);
      expect(file, path).not.toBeNull();
      expect(Buffer.from(file!.body).equals(readFileSync(join(dist, path))), path).toBe(true);
      if (file!.etag !== undefined) expect(file!.etag).toMatch(/^"[^"]+"$/);
    }
  });

  it("reads nothing for a file the tree does not hold", async () => {
    expect(await storage().read("document/no-such-document/_index.json")).toBeNull();
    expect(await storage().read("_catalog.jsonx")).toBeNull();
  });

  it("reads nothing for a path that could leave the tree, however it is spelled", async () => {
    for (const path of [
      "../dist/_catalog.json",
      "/etc/passwd",
      "document/../_catalog.json",
      "./_catalog.json",
      "",
      "document//x",
      `${dist}/_catalog.json`,
    ]) {
      expect(await storage().read(path), JSON.stringify(path)).toBeNull();
    }
  });

  it("reads a part of a file (a packed body), and nothing past its end or outside the tree", async () => {
    const path = `${documentFolder(CATULLUS)}/_index.json`;
    const whole = readFileSync(join(dist, path));
    const part = await readRange(storage(), path, 10, 40);
    expect(part && Buffer.from(part).equals(whole.subarray(10, 50))).toBe(true);
    expect(await readRange(storage(), path, whole.length - 5, 10)).toBeNull();
    expect(await readRange(storage(), "../dist/_catalog.json", 0, 4)).toBeNull();
    expect(await readRange(storage(), "document/no-such-document/_index.json", 0, 4)).toBeNull();
  });

  it("gives a precompressed sibling only when it is there and not older than its file", async () => {
    const s = storage();
    if (!hasPrecompressed(s)) return void expect(name).toBe("fetch");
    const fresh = await s.readEncoded("_catalog.json", "gzip");
    expect(fresh && Buffer.from(fresh.body).equals(readFileSync(join(dist, "_catalog.json.gz")))).toBe(true);
    expect(await s.readEncoded("_site.json", "gzip")).toBeNull();
    expect(await s.readEncoded("_catalog.json", "br")).toBeNull();
    expect(await s.readEncoded("../_catalog.json", "gzip")).toBeNull();
  });
});

describe("the fetch storage on a host that ignores Range (Workers static assets do)", () => {
  it("reads a pack once, and cuts its other bodies from the copy it keeps", async () => {
    const folder = documentFolder(CATULLUS);
    const entries = readFolder(dist, folder)!.entries;
    const pack = entries["r.2.xml"].file;
    const inPack = Object.values(entries).filter((e) => e.file === pack);
    expect(inPack.length).toBeGreaterThan(3);
    const storage = fetchStorage((path, headers) => fetch(`${origin}/${path}`, { headers }));
    const bytes = readFileSync(join(dist, folder, pack));
    for (const e of inPack) {
      const part = await readRange(storage, `${folder}/${pack}`, e.offset, e.length);
      expect(part && Buffer.from(part).equals(bytes.subarray(e.offset, e.offset + e.length))).toBe(true);
    }
    expect(served.get(`${folder}/${pack}`)).toBe(1);
  });
});
