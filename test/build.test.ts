// The build over an existing tree: unchanged documents are reused, changed ones rebuilt in
// place, removed ones removed; and the number of worker threads does not change a byte.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { documentFolder, navigationFolder } from "../builder/tree/layout.js";
import { startServer } from "../server/serve.js";
import { CAESAR, CAESAR_FILE, CATULLUS, CATULLUS_FILE, documentPath } from "./helpers/embedded.js";
import { allStoredResponses, EMBEDDED, PROJECT, snapshotTree, storedResponses, storedText } from "./helpers/tree.js";

const site = makeSite();
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "dts-build-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("incremental build", () => {
  it("reuses unchanged documents and rewrites only what changed", async () => {
    const corpus = join(work, "corpus");
    const out = join(work, "dist");
    cpSync(EMBEDDED, corpus, { recursive: true });
    const first = await build({ corpus, out, site });
    expect(first.incremental).toBe(false);
    const before = snapshotTree(out);
    const responsesBefore = allStoredResponses(out);

    const again = await build({ corpus, out, site });
    expect(again.incremental).toBe(true);
    expect(again.reused).toBe(6);
    expect(snapshotTree(out)).toEqual(before);

    // One line of Catullus changes: its files change, Caesar's are not touched.
    const file = join(corpus, CATULLUS_FILE);
    writeFileSync(file, readFileSync(file, "utf8").replace("rumoresque", "RUMORESQUE"));
    const edited = await build({ corpus, out, site });
    expect(edited.reused).toBe(5);
    const after = snapshotTree(out);
    const responsesAfter = allStoredResponses(out);
    // Only the whole document and the edited line (same length: offsets, so the index, unchanged).
    const changed = [...responsesAfter.keys()].filter((k) => responsesAfter.get(k) !== responsesBefore.get(k));
    expect(changed.sort()).toEqual(["_.xml", "r.2.xml"].map((f) => `${documentFolder(CATULLUS)}/${f}`));
    expect([...responsesAfter.keys()].sort()).toEqual([...responsesBefore.keys()].sort());
    // The files that changed are that document's alone, and the tree's generation, which tells servers their caches are stale.
    const files = [...after.keys()].filter((k) => after.get(k)!.hash !== before.get(k)?.hash);
    expect(files.filter((k) => !k.startsWith(`${documentFolder(CATULLUS)}/`))).toEqual(["_generation"]);
    for (const [k, v] of before) {
      if (k.startsWith(documentFolder(CAESAR))) expect(after.get(k)!.mtime, k).toBe(v.mtime);
    }
    expect(storedText(out, `${documentFolder(CATULLUS)}/r.2.xml`)).toContain("RUMORESQUE");
  });

  it("removes the passages and documents that went away", async () => {
    const corpus = join(work, "corpus2");
    const out = join(work, "dist2");
    cpSync(EMBEDDED, corpus, { recursive: true });
    await build({ corpus, out, site });
    const file = join(corpus, CATULLUS_FILE);
    writeFileSync(file, readFileSync(file, "utf8").replace(/<l n="13">[\s\S]*?<\/l>/, ""));
    await build({ corpus, out, site });
    expect(storedText(out, `${documentFolder(CATULLUS)}/r.12.xml`)).toContain('n="12"');
    expect(storedResponses(out, documentFolder(CATULLUS)).has("r.13.xml")).toBe(false);
    // No file of the tree holds a body no entry names any more (beyond what the last pack kept).
    expect(readdirSync(join(out, documentFolder(CATULLUS))).filter((n) => n.startsWith("_p.")).length).toBeLessThan(3);

    rmSync(join(corpus, CAESAR_FILE));
    const report = await build({ corpus, out, site });
    expect(report.documents).toBe(5);
    expect(existsSync(join(out, documentFolder(CAESAR)))).toBe(false);
    expect(existsSync(join(out, navigationFolder(CAESAR)))).toBe(false);
    const latin = JSON.parse(storedText(out, "collection/urn_3adts_3asample_3alatin/children.json")!);
    expect(latin.member.map((m: { "@id": string }) => m["@id"])).not.toContain(CAESAR);
  });

  it("builds everything anew with other settings", async () => {
    const out = join(work, "dist3");
    await build({ corpus: EMBEDDED, out, site });
    const other = await build({ corpus: EMBEDDED, out, site: makeSite({ basePath: "/other" }) });
    expect(other.incremental).toBe(false);
    expect(storedText(out, "index.json")).toContain('"/other/collection"');
  });
});

describe("a server reading a tree rebuilt by another process", () => {
  it("drops its caches when the tree's generation changes", async () => {
    const corpus = join(work, "fresh-corpus");
    const out = join(work, "fresh-dist");
    cpSync(EMBEDDED, corpus, { recursive: true });
    await build({ corpus, out, site });
    const server = await startServer({ dist: out, site, port: 0, host: "127.0.0.1" });
    try {
      const url = server.url + documentPath(`id=${CATULLUS}&ref=2`);
      // A range is computed from the cached source and index; a passage from the cached manifest.
      const range = server.url + documentPath(`id=${CATULLUS}&start=2&end=3`);
      expect(await (await fetch(url)).text()).toContain("rumoresque");
      expect(await (await fetch(range)).text()).toContain("rumoresque");
      const file = join(corpus, CATULLUS_FILE);
      writeFileSync(file, readFileSync(file, "utf8").replace("rumoresque", "rumores atque"));
      await build({ corpus, out, site });
      await new Promise((r) => setTimeout(r, 1100));
      expect(await (await fetch(url)).text()).toContain("rumores atque");
      expect(await (await fetch(range)).text()).toContain("rumores atque");
    } finally {
      await server.close();
    }
  });
});

describe("host rules across builds", () => {
  it("keeps the host options of the last build that named them, and regenerates only on change", async () => {
    const corpus = join(work, "hosts-corpus");
    const out = join(work, "hosts-dist");
    cpSync(EMBEDDED, corpus, { recursive: true });
    const rules = join(out, "_hosts/nginx/dts-http.conf");
    await build({ corpus, out, site, hosts: { hosts: ["nginx"] } });
    const first = statSync(rules).mtimeMs;
    // A build naming no hosts (as `serve --corpus` and `watch` run it) keeps them, untouched.
    const again = await build({ corpus, out, site });
    expect(again.hostFiles?.hosts ?? []).toEqual([]);
    expect(statSync(rules).mtimeMs).toBe(first);
    // A change regenerates them with the same options.
    const file = join(corpus, CATULLUS_FILE);
    writeFileSync(file, readFileSync(file, "utf8").replace("rumoresque", "rumoresque senum"));
    const changed = await build({ corpus, out, site });
    expect(changed.hostFiles?.hosts.map((h) => h.host)).toEqual(["nginx"]);
    expect(existsSync(rules)).toBe(true);
    // Naming an empty list removes them.
    await build({ corpus, out, site, hosts: { hosts: [] } });
    expect(existsSync(join(out, "_hosts"))).toBe(false);
  });
});

describe("worker threads", () => {
  it("a parallel build and a serial build produce identical trees", () => {
    const trees = [0, 2].map((workers) => {
      const out = join(work, `workers-${workers}`);
      const r = spawnSync(
        process.execPath,
        [join(PROJECT, "bin/dts.js"), "build", "--corpus", EMBEDDED, "--out", out, "--workers", String(workers)],
        {
          encoding: "utf8",
        },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(allStoredResponses(out).size).toBeGreaterThan(200);
      return new Map([...snapshotTree(out)].filter(([k]) => k !== "_tree.json" && k !== "_generation").map(([k, v]) => [k, v.hash]));
    });
    expect(trees[0].size).toBeGreaterThan(40);
    expect(trees[1]).toEqual(trees[0]);
  });
});
