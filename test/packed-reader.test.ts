// The two layouts of a tree (builder/tree/packed-folder.ts): a packed tree (bodies a few to a
// file) answers every request of the conformance lists exactly as a tree of one file per body
// does (status, headers, bytes), through dts serve on the disk and through the fetch-backed and
// in-memory storages the Worker and the edge function use; its ETags are the entries' tags.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { MANIFEST } from "../builder/tree/layout.js";
import { type PackedEntries, parseManifest } from "../builder/tree/packed-folder.js";
import { fetchStorage } from "../server/adapters/fetch-storage.js";
import { memoryStorage } from "../server/adapters/memory-storage.js";
import { openTree } from "../server/open-tree.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { CATULLUS, doc } from "./helpers/embedded.js";
import { COMPUTED_REQUESTS, expectSameAnswer, STORED_REQUESTS } from "./helpers/hosts-conformance.js";
import { EMBEDDED, TEST_SITE_URL, treeFiles } from "./helpers/tree.js";

let work: string;
let plain: RunningServer;
let packed: RunningServer;
const servers: Server[] = [];

async function serveApp(app: Hono): Promise<string> {
  const server = createServer(async (req, res) => {
    const response = await app.fetch(
      new Request(`http://x${req.url}`, { method: req.method, headers: req.headers as Record<string, string> }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "dts-packed-"));
  await build({ corpus: EMBEDDED, out: join(work, "plain"), site: makeSite({ layout: "files", siteUrl: TEST_SITE_URL }) });
  await build({ corpus: EMBEDDED, out: join(work, "packed"), site: makeSite({ layout: "packed", siteUrl: TEST_SITE_URL }) });
  plain = await startServer({
    dist: join(work, "plain"),
    site: makeSite({ layout: "files", siteUrl: TEST_SITE_URL }),
    port: 0,
    host: "127.0.0.1",
  });
  packed = await startServer({ dist: join(work, "packed"), site: makeSite({ siteUrl: TEST_SITE_URL }), port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  for (const s of servers) await new Promise((done) => s.close(done));
  await Promise.all([plain?.close(), packed?.close()]);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("a packed tree", () => {
  it("holds a few packs per folder, where the other layout has a file per response", () => {
    const folder = readdirSync(join(work, "packed", "document")).find((n) => n.includes("phi0472"))!;
    const packs = (tree: string): string[] => readdirSync(join(work, tree, "document", folder)).filter((n) => n.startsWith("_p."));
    const entries = Object.keys(parseManifest(readFileSync(join(work, "packed", "document", folder, MANIFEST), "utf8"))!.entries!);
    expect(packs("packed").length).toBeLessThan(3);
    expect(packs("plain").length).toBe(entries.length);
  });

  it("is answered by dts serve exactly as the one-file-per-body tree, for every request of the conformance lists", async () => {
    for (const path of [...STORED_REQUESTS, ...COMPUTED_REQUESTS]) await expectSameAnswer(plain.url, packed.url, path);
  });

  it("gives a stored response the tag its entry holds, and 304 for it", async () => {
    const r = await fetch(packed.url + doc(CATULLUS, "&ref=2"));
    const folder = readdirSync(join(work, "packed", "document")).find((n) => n.includes("phi0472"))!;
    const manifest = parseManifest(readFileSync(join(work, "packed", "document", folder, MANIFEST), "utf8"))!;
    const entries: PackedEntries = manifest.entries ?? {};
    for (const b of manifest.blocks ?? [])
      Object.assign(entries, JSON.parse(readFileSync(join(work, "packed", "document", folder, b.file), "utf8")));
    expect(r.headers.get("etag")).toBe(entries["r.2.xml"].etag);
    const again = await fetch(packed.url + doc(CATULLUS, "&ref=2"), { headers: { "If-None-Match": r.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("is answered the same through the in-memory and fetch-backed storages (a host without Range: the pack is cut)", async () => {
    const files = treeFiles(join(work, "packed"));
    const statics = createServer((req, res) => {
      const body = files.get(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.slice(1)));
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200).end(body);
    });
    servers.push(statics);
    await new Promise<void>((done) => statics.listen(0, "127.0.0.1", done));
    const origin = `http://127.0.0.1:${(statics.address() as { port: number }).port}`;
    const viaMemory = await serveApp(await openTree(memoryStorage(files), "memory"));
    const viaFetch = await serveApp(
      await openTree(
        fetchStorage((p, headers) => fetch(`${origin}/${p}`, { headers })),
        "fetch",
      ),
    );
    for (const path of STORED_REQUESTS) {
      await expectSameAnswer(plain.url, viaMemory, path);
      await expectSameAnswer(plain.url, viaFetch, path);
    }
  });
});
