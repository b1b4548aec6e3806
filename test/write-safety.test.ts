// The write API under load and under failure: readers during a stream of writes get the old
// or the new response, never a 404 or a torn body; concurrent writes to one document are
// serialised; a server killed in the middle of writes leaves every corpus file whole (old or
// new), and its next start brings the tree back in line with the corpus.

import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { documentFolder, navigationFolder } from "../builder/tree/layout.js";
import { CAESAR, CAESAR_FILE, CATULLUS, CATULLUS_FILE, doc, nav } from "./helpers/embedded.js";
import { EMBEDDED, PROJECT, storedResponses } from "./helpers/tree.js";
import { fragment, TOKEN, type WriteTree, writeTree } from "./helpers/write-server.js";

const inner = (body: string): string => /<dts:fragment[^>]*>([\s\S]*)<\/dts:fragment>/.exec(body)?.[1] ?? "";
const ORIGINAL_2 = `<l n="2">rumoresque senum severiorum</l>`;
/** Versions of different lengths, so that every offset after the line moves with each write. */
const version = (k: number): string => `<l n="2">${"longior ".repeat(k % 5)}versio ${k}</l>`;

describe("readers during writes", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree();
  });
  afterAll(async () => t?.close());

  it("GETs during a stream of PUTs get the old or the new response, never a 404 or a mixed body", async () => {
    const allowed = new Set([ORIGINAL_2]);
    for (let k = 0; k < 40; k++) allowed.add(version(k));
    let done = false;
    const problems: string[] = [];
    let reads = 0;
    const line2 = (text: string): string | undefined => /<l n="2">[^<]*<\/l>/.exec(text)?.[0];
    const reader = async (): Promise<void> => {
      while (!done) {
        const [passage, range, whole, navigation] = await Promise.all([
          t.fetch(doc(CATULLUS, "&ref=2")),
          t.fetch(doc(CATULLUS, "&start=1&end=3")),
          t.fetch(doc(CATULLUS)),
          t.fetch(nav(CATULLUS)),
        ]);
        reads += 4;
        for (const r of [passage, range, whole, navigation]) if (r.status !== 200) problems.push(`${r.url}: ${r.status}`);
        const p = await passage.text();
        if (!allowed.has(inner(p))) problems.push(`passage: ${inner(p)}`);
        const g = await range.text();
        if (
          XMLValidator.validate(g) !== true ||
          !g.includes(`<l n="1">Vivamus, mea Lesbia, atque amemus,</l>`) ||
          !g.includes(`<l n="3">omnes unius aestimemus assis!</l>`) ||
          !allowed.has(line2(g) ?? "")
        ) {
          problems.push(`range: ${inner(g)}`);
        }
        const w = await whole.text();
        if (XMLValidator.validate(w) !== true || !allowed.has(line2(w) ?? "")) problems.push(`whole: ${w.slice(0, 200)}`);
        const n = await navigation.json();
        if (n.member?.length !== 13) problems.push(`navigation: ${JSON.stringify(n).slice(0, 200)}`);
      }
    };
    const readers = [reader(), reader(), reader()];
    for (let k = 0; k < 40; k++) {
      const r = await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(version(k)));
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
    done = true;
    await Promise.all(readers);
    expect(problems).toEqual([]);
    expect(reads).toBeGreaterThan(40);
    expect(inner(await (await t.fetch(doc(CATULLUS, "&ref=2"))).text())).toBe(version(39));
  });

  it("GETs while passages come and go get 200 or 404 for the passage itself, 200 for its neighbour", async () => {
    let done = false;
    const problems: string[] = [];
    const added = `<l n="13a">versus additus</l>`;
    const reader = async (): Promise<void> => {
      while (!done) {
        const [neighbour, item] = await Promise.all([t.fetch(doc(CATULLUS, "&ref=13")), t.fetch(doc(CATULLUS, "&ref=13a"))]);
        if (neighbour.status !== 200) problems.push(`13: ${neighbour.status}`);
        const next = /<([^>]*)>; rel="next"/.exec(neighbour.headers.get("link") ?? "")?.[1];
        if (next !== undefined && next !== `/api/dts/document?id=${CATULLUS}&ref=13a`) problems.push(`13 next: ${next}`);
        await neighbour.arrayBuffer();
        const body = await item.text();
        if (item.status === 200 ? inner(body) !== added : item.status !== 404) problems.push(`13a: ${item.status} ${body.slice(0, 100)}`);
      }
    };
    const readers = [reader(), reader()];
    for (let k = 0; k < 15; k++) {
      const post = await t.write("POST", doc(CATULLUS, "&after=13"), fragment(added));
      expect(post.status).toBe(201);
      await post.arrayBuffer();
      const del = await t.write("DELETE", doc(CATULLUS, "&ref=13a"));
      expect(del.status).toBe(200);
      await del.arrayBuffer();
    }
    done = true;
    await Promise.all(readers);
    expect(problems).toEqual([]);
  });

  it("concurrent writes to one document are applied one after another", async () => {
    const lines = Array.from({ length: 12 }, (_, k) => `<l n="${k + 1}">parallel ${k}</l>`);
    const results = await Promise.all(lines.map((line, k) => t.write("PUT", doc(CATULLUS, `&ref=${k + 1}`), fragment(line))));
    expect(results.map((r) => r.status)).toEqual(lines.map(() => 200));
    const text = t.file(CATULLUS_FILE);
    expect(XMLValidator.validate(text)).toBe(true);
    for (const line of lines) expect(text).toContain(line);
    for (let k = 0; k < 12; k++) expect(inner(await (await t.fetch(doc(CATULLUS, `&ref=${k + 1}`))).text())).toBe(lines[k]);
  });
});

describe("a server killed during writes", () => {
  const DTS = join(PROJECT, "bin/dts.js");
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "dts-kill-"));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  function start(corpus: string, dist: string): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, [DTS, "serve", "--corpus", corpus, "--dist", dist, "--port", "0"], {
      env: { ...process.env, DTS_TOKEN: TOKEN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new Promise((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 60_000);
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /dts serve: (http:\/\/[^/\s]+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve({ child, url: m[1] });
        }
      });
      child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
      child.on("exit", (code) => reject(new Error(`the server exited (${code}): ${out}`)));
    });
  }

  function hashes(root: string, folder: string, names: string[]): Map<string, string> {
    const out = new Map<string, string>();
    const dir = join(root, folder);
    for (const name of names.filter((n) => existsSync(join(dir, n)))) {
      const text = readFileSync(join(dir, name));
      // The build record says how much the last rebuild wrote; its hash of the source must agree.
      const value = name === "_build.json" ? JSON.parse(text.toString()).hash : createHash("sha1").update(text).digest("hex");
      out.set(relative(root, join(dir, name)), value);
    }
    return out;
  }

  it("leaves each corpus file old or new and whole, and the next start rebuilds the tree to match", async () => {
    const corpus = join(work, "corpus");
    const dist = join(work, "dist");
    cpSync(EMBEDDED, corpus, { recursive: true });
    const catFile = join(corpus, CATULLUS_FILE);
    const caesarFile = join(corpus, CAESAR_FILE);
    const catOriginal = readFileSync(catFile, "utf8");
    const caesarOriginal = readFileSync(caesarFile, "utf8");
    const caesarSection = /<p>Gallia est omnis[^<]*<\/p>/.exec(caesarOriginal)![0];
    const caesarVersion = (k: number): string =>
      `<div type="textpart" subtype="section" n="1">\n              <p>${"Gallia ".repeat(k % 4)}versio ${k}</p>\n            </div>`;
    const catAllowed = new Set([catOriginal]);
    const caesarAllowed = new Set([caesarOriginal]);
    const caesarOriginalSection = `<div type="textpart" subtype="section" n="1">\n              ${caesarSection}\n            </div>`;

    for (let round = 0; round < 3; round++) {
      const { child, url } = await start(corpus, dist);
      const exited = new Promise((r) => child.once("exit", r));
      const stopAt = performance.now() + 150 + round * 120;
      let k = round * 1000;
      let sent = 0;
      const put = async (path: string, body: string): Promise<void> => {
        try {
          const r = await fetch(url + path, { method: "PUT", headers: { Authorization: `Bearer ${TOKEN}` }, body });
          await r.arrayBuffer();
        } catch {
          // The server died: this write may or may not have landed.
        }
      };
      const writer = (async () => {
        while (performance.now() < stopAt + 1000 && child.exitCode === null) {
          k++;
          catAllowed.add(catOriginal.replace(ORIGINAL_2, version(k)));
          caesarAllowed.add(caesarOriginal.replace(caesarOriginalSection, caesarVersion(k)));
          await Promise.all([
            put(doc(CATULLUS, "&ref=2"), fragment(version(k))),
            put(doc(CAESAR, "&ref=1.1.1"), fragment(caesarVersion(k))),
          ]);
          sent++;
        }
      })();
      while (performance.now() < stopAt) await new Promise((r) => setTimeout(r, 5));
      child.kill("SIGKILL");
      await exited;
      await writer;
      expect(sent).toBeGreaterThan(0);

      const cat = readFileSync(catFile, "utf8");
      const caesar = readFileSync(caesarFile, "utf8");
      expect(XMLValidator.validate(cat)).toBe(true);
      expect(XMLValidator.validate(caesar)).toBe(true);
      expect(catAllowed.has(cat), cat.slice(2000, 2600)).toBe(true);
      expect(caesarAllowed.has(caesar)).toBe(true);
      for (const f of readdirSync(corpus, { recursive: true }) as string[]) {
        if (f.endsWith(".xml")) expect(XMLValidator.validate(readFileSync(join(corpus, f), "utf8")), f).toBe(true);
      }
    }

    // A restart brings the tree in line with the corpus: what a fresh build makes of it.
    const { child, url } = await start(corpus, dist);
    try {
      const leftovers = (readdirSync(corpus, { recursive: true }) as string[]).filter((f) => f.includes(".dts-"));
      expect(leftovers).toEqual([]);
      const line = /<l n="2">[^<]*<\/l>/.exec(readFileSync(catFile, "utf8"))![0];
      expect(inner(await (await fetch(url + doc(CATULLUS, "&ref=2"))).text())).toBe(line);
      const fresh = join(work, "fresh");
      await build({ corpus, out: fresh, site: makeSite() });
      for (const id of [CATULLUS, CAESAR]) {
        for (const folder of [documentFolder(id), navigationFolder(id)]) {
          expect(storedResponses(dist, folder)).toEqual(storedResponses(fresh, folder));
          expect(storedResponses(dist, folder).size).toBeGreaterThan(0);
        }
        expect(hashes(dist, documentFolder(id), ["_build.json", "_index.json"])).toEqual(
          hashes(fresh, documentFolder(id), ["_build.json", "_index.json"]),
        );
      }
    } finally {
      child.kill("SIGTERM");
    }
  }, 120_000);
});

describe("corpus files kept elsewhere", () => {
  it("a write to a linked file replaces the linked text and keeps the link", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), "dts-linked-"));
    const t = await writeTree({
      prepare: (corpus) => {
        renameSync(join(corpus, CATULLUS_FILE), join(elsewhere, "catullus-5.xml"));
        symlinkSync(join(elsewhere, "catullus-5.xml"), join(corpus, CATULLUS_FILE));
      },
    });
    try {
      const r = await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(version(3)));
      expect(r.status, await r.text()).toBe(200);
      expect(lstatSync(join(t.corpus, CATULLUS_FILE)).isSymbolicLink()).toBe(true);
      expect(readFileSync(join(elsewhere, "catullus-5.xml"), "utf8")).toContain(version(3));
      expect(readdirSync(elsewhere)).toEqual(["catullus-5.xml"]);
    } finally {
      await t.close();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
