// Writes on a tree that serves DTS 1.0 too: a PUT, a DELETE and a POST through the 1-draft2
// write API change the 1.0 answers (stored, static-profile files, computed) at once, and the
// static files of passages that went away go with them.

import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { documentTask, rewriteDocument } from "../builder/build/document-output.js";
import type { ResourceNode } from "../builder/catalog.js";
import { loadCatalog } from "../builder/metadata/load.js";
import { makeSite } from "../builder/site.js";
import { encodeName, MANIFEST } from "../builder/tree/layout.js";
import { CATULLUS, CATULLUS_FILE, doc } from "./helpers/embedded.js";
import { EMBEDDED } from "./helpers/tree.js";
import { fragment, type WriteTree, writeTree } from "./helpers/write-server.js";

const v1doc = (ref: string): string => `/api/dts/v1/document?resource=${encodeURIComponent(CATULLUS)}&ref=${encodeURIComponent(ref)}`;
const v1nav = (query: string): string => `/api/dts/v1/navigation?resource=${encodeURIComponent(CATULLUS)}&${query}`;
/** The static profile's file of a passage, and of its Navigation with down=1. */
const passageFile = (t: WriteTree, ref: string): string => join(t.dist, `api/dts/v1/document/${CATULLUS}/${ref}.tei`);
const navFile = (t: WriteTree, ref: string): string => join(t.dist, `api/dts/v1/navigation/${CATULLUS};down=1/${ref}.jsonld`);

describe("writes on a tree with DTS 1.0 and its static profile", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree({ site: makeSite({ apis: ["1-draft2", "1.0"], staticPaths: true }) });
  });
  afterAll(() => t.close());

  it("a PUT changes the 1.0 passage on dts serve and in its static file", async () => {
    const line = `<l n="2">rumoresque senum SEVERIORUM</l>`;
    expect((await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(line))).status).toBe(200);
    expect(await (await t.fetch(v1doc("2"))).text()).toContain(`<dts:wrapper xmlns:dts="https://w3id.org/api/dts#">${line}</dts:wrapper>`);
    expect(readFileSync(passageFile(t, "2"), "utf8")).toContain(line);
  });

  it("a DELETE removes the passage's static files and its unit from Navigation", async () => {
    expect(existsSync(passageFile(t, "13"))).toBe(true);
    expect(existsSync(navFile(t, "13"))).toBe(true);
    expect((await t.write("DELETE", doc(CATULLUS, "&ref=13"))).status).toBe(200);
    expect(existsSync(passageFile(t, "13"))).toBe(false);
    expect(existsSync(navFile(t, "13"))).toBe(false);
    expect((await t.fetch(v1doc("13"))).status).toBe(404);
    const all = (await (await t.fetch(v1nav("down=-1"))).json()).member.map((u: { identifier: string }) => u.identifier);
    expect(all).not.toContain("13");
    expect(all).toContain("12");
  });

  it("a POST adds the passage's static files", async () => {
    const line = `<l n="13">cum tantum sciat esse basiorum.</l>`;
    expect((await t.write("POST", doc(CATULLUS, "&after=12"), fragment(line))).status).toBe(201);
    expect(readFileSync(passageFile(t, "13"), "utf8")).toContain(line);
    expect(JSON.parse(readFileSync(navFile(t, "13"), "utf8")).member.map((u: { identifier: string }) => u.identifier)).toEqual(["13"]);
  });
});

describe("a PUT on a tree with DTS 1.0 stored packed (its fast path)", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree({ site: makeSite({ apis: ["1-draft2", "1.0"], siteUrl: "http://127.0.0.1:9" }) });
  });
  afterAll(() => t.close());

  it("rewrites the changed 1.0 passage and the whole document, and keeps the 1.0 Navigation folder as it was", async () => {
    const navManifest = join(t.dist, "v1/navigation", encodeName(CATULLUS), MANIFEST);
    const before = readFileSync(navManifest, "utf8");
    const unchanged = await (await t.fetch(v1doc("3"))).text();
    const line = `<l n="2">rumoresque senum SEVERIORUM</l>`;
    expect((await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(line))).status).toBe(200);
    expect(await (await t.fetch(v1doc("2"))).text()).toContain(`<dts:wrapper xmlns:dts="https://w3id.org/api/dts#">${line}</dts:wrapper>`);
    expect(await (await t.fetch(`/api/dts/v1/document?resource=${encodeURIComponent(CATULLUS)}`)).text()).toContain(line);
    expect(await (await t.fetch(v1doc("3"))).text()).toBe(unchanged);
    expect(readFileSync(navManifest, "utf8")).toBe(before);
    expect((await (await t.fetch(v1nav("ref=2&down=1"))).json()).ref.identifier).toBe("2");
  });
});

describe("the rebuild plan of a tree with DTS 1.0", () => {
  it("keeps the fast path (changed passages only) for a changed line, packed or static", async () => {
    const work = mkdtempSync(join(tmpdir(), "dts-v1-plan-"));
    try {
      for (const [name, site] of [
        ["packed", makeSite({ apis: ["1-draft2", "1.0"], siteUrl: "http://127.0.0.1:9" })],
        ["static", makeSite({ apis: ["1.0"], staticPaths: true })],
      ] as const) {
        const corpus = join(work, `${name}-corpus`);
        const dist = join(work, `${name}-dist`);
        cpSync(EMBEDDED, corpus, { recursive: true });
        await build({ corpus, out: dist, site, workers: 0 });
        const file = join(corpus, CATULLUS_FILE);
        writeFileSync(file, readFileSync(file, "utf8").replace("rumoresque senum", "RUMORESQUE senum"));
        const resource = (await loadCatalog(corpus)).nodes.get(CATULLUS) as ResourceNode;
        const { plan } = rewriteDocument(site, dist, documentTask(corpus, resource));
        expect([name, plan.mode]).toEqual([name, "passages"]);
        const answer = name === "packed" ? null : readFileSync(join(dist, `api/dts/v1/document/${CATULLUS}/2.tei`), "utf8");
        if (answer !== null) expect(answer).toContain("RUMORESQUE senum");
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
