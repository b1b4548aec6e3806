// Integration tests on real corpora (../shared/corpora), over real HTTP.
//
// Each suite copies a few folders of a shared corpus into a temporary directory, builds it with
// the real build, serves the tree with the real server (`serveCorpus`), and checks the answers
// against values read from the source files by the suite's own small XML reader (an oracle that
// shares no code with the builder, in ./helpers/xml-oracle.ts): reference lists, exact source
// slices, declared citation levels, metadata records.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Warning } from "../builder/catalog.js";
import { HAS_SHARED, links, type ServedTree, SHARED, SHARED_SKIP, serveCorpus } from "./helpers/tree.js";
import {
  atLevel,
  citeChain,
  type Doc,
  declaredCtsLevels,
  descendants,
  type El,
  type Expected,
  type ExpectedUnit,
  expectedUnits,
  type Level,
  lineOf,
  nsOf,
  outer,
  parseXml,
  readDoc,
  refsAt,
  textOf,
} from "./helpers/xml-oracle.js";

const TEI_NS = "http://www.tei-c.org/ns/1.0";
const DTS_NS = "https://w3id.org/dts/api#";
const DTS_ERROR_NS = "https://w3id.org/dts/api";
const API = "/api/dts";

// ---------------------------------------------------------------------------------------------
// Temporary corpora and HTTP helpers.

/** A temporary corpus holding copies of `paths` (relative to `from`), at the same relative places. */
function tempCorpus(from: string, paths: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "dts-real-corpus-"));
  for (const p of paths) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    cpSync(join(from, p), join(dir, p), { recursive: true });
  }
  return dir;
}

/** A textgroup's `__cts__.xml` and the listed work folders, as paths relative to the corpus root. */
function textgroup(group: string, works: string[]): string[] {
  return [`data/${group}/__cts__.xml`, ...works.map((w) => `data/${group}/${w}`)];
}

/** Builds and serves a corpus for the enclosing describe block; closed after it. */
function useCorpus(make: () => string): { tree: ServedTree; corpus: string } {
  const ctx = {} as { tree: ServedTree; corpus: string };
  beforeAll(async () => {
    ctx.corpus = make();
    ctx.tree = await serveCorpus(ctx.corpus);
  });
  afterAll(async () => {
    await ctx.tree?.close();
    if (ctx.corpus) rmSync(ctx.corpus, { recursive: true, force: true });
  });
  return ctx;
}

const q = (params: Record<string, string | number>): string =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field below
async function getJson(tree: ServedTree, endpoint: string, params: Record<string, string | number>): Promise<any> {
  const res = await tree.fetch(`${API}/${endpoint}?${q(params)}`);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${endpoint}?${q(params)}: ${res.status} ${body}`);
  return JSON.parse(body);
}

// biome-ignore lint/suspicious/noExplicitAny: as getJson
const collection = (tree: ServedTree, id: string): Promise<any> => getJson(tree, "collection", { id });

async function navRefs(tree: ServedTree, id: string, params: Record<string, string | number> = {}): Promise<string[]> {
  const nav = await getJson(tree, "navigation", { id, ...params });
  return nav.member.map((m: { ref: string }) => m.ref);
}

interface Passage {
  status: number;
  res: Response;
  body: string;
  /** The exact text inside `TEI > dts:fragment`. */
  fragment: string;
}

async function passage(tree: ServedTree, id: string, params: Record<string, string>): Promise<Passage> {
  const res = await tree.fetch(`${API}/document?${q({ id, ...params })}`);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET document ${q({ id, ...params })}: ${res.status} ${body}`);
  return { status: res.status, res, body, fragment: fragmentOf(body) };
}

/** Checks the `TEI > dts:fragment` envelope and returns the fragment's exact content. */
function fragmentOf(body: string): string {
  const doc = parseXml(body);
  expect(doc.root.local).toBe("TEI");
  expect(nsOf(doc.root)).toBe(TEI_NS);
  const frag = doc.root.children.find((c) => c.local === "fragment" && nsOf(c) === DTS_NS);
  expect(frag, "TEI has a dts:fragment child").toBeDefined();
  return body.slice(frag!.startEnd, frag!.closeStart);
}

/** Link relations of a Document response, as their query parameters. */
function linkParams(res: Response): Record<string, URLSearchParams> {
  const out: Record<string, URLSearchParams> = {};
  for (const [rel, target] of Object.entries(links(res))) out[rel] = new URL(target, "http://host").searchParams;
  return out;
}

/** Warnings of the build about one file of the corpus. */
const warningsFor = (tree: ServedTree, file: string): Warning[] => tree.report.warnings.filter((w) => basename(w.file) === file);

/** Checks that a passage is the exact source slice of its unit. */
async function expectSlice(tree: ServedTree, id: string, doc: Doc, unit: ExpectedUnit): Promise<void> {
  const p = await passage(tree, id, { ref: unit.ref });
  expect(p.fragment, `ref=${unit.ref}`).toBe(outer(doc, unit.el));
}

/** The first, a middle and the last unit of a level. */
function sample(units: ExpectedUnit[]): ExpectedUnit[] {
  return [...new Set([units[0], units[Math.floor(units.length / 2)], units[units.length - 1]])];
}

// ---------------------------------------------------------------------------------------------

// The suites below are skipped without ../shared: the run's output says why.
if (!HAS_SHARED) console.warn(SHARED_SKIP);

const GREEK = join(SHARED, "greekLit");
const LATIN = join(SHARED, "latinLit");

describe.skipIf(!HAS_SHARED)("Iliad (greekLit tlg0012)", () => {
  const ctx = useCorpus(() => tempCorpus(GREEK, ["data/tlg0012"]));
  const folder = join(GREEK, "data/tlg0012/tlg001");
  const id = "urn:cts:greekLit:tlg0012.tlg001.perseus-grc2";
  const file = join(folder, "tlg0012.tlg001.perseus-grc2.xml");
  const levels: Level[] = [{ path: "text/body/div/div[@n]" }, { path: ".//l[@n]" }];
  const doc = (): Doc => readDoc(file);
  const expected = (): Expected => expectedUnits(doc(), levels);

  it("lists the 24 books at level 1 and every line at level 2", async () => {
    const books = refsAt(expected(), 1);
    const lines = refsAt(expected(), 2);
    expect(books).toHaveLength(24);
    // The count of `<l n=` in the file, independently of the tree reading.
    expect(lines.length).toBe(doc().src.match(/<l n=/g)!.length);
    expect(lines.length).toBe(15686);
    expect(new Set(lines).size).toBe(lines.length);
    expect(await navRefs(ctx.tree, id)).toEqual(books);
    const nav = await getJson(ctx.tree, "navigation", { id, down: 2 });
    expect(nav.level).toBe(0);
    expect(nav.maxCiteDepth).toBe(2);
    expect(nav.member).toHaveLength(lines.length);
    expect(nav.member.map((m: { ref: string }) => m.ref)).toEqual(lines);
    expect(nav.member.every((m: { level: number }) => m.level === 2)).toBe(true);
    expect(await navRefs(ctx.tree, id, { down: "max" })).toEqual(lines);
  });

  it("ref=1.1 is the exact source text of line 1 of book 1, inside TEI > dts:fragment", async () => {
    const src = doc().src;
    const book1 = src.indexOf('<div type="textpart" subtype="Book" n="1">');
    const from = src.indexOf('<l n="1">', book1);
    const slice = src.slice(from, src.indexOf("</l>", from) + "</l>".length);
    const p = await passage(ctx.tree, id, { ref: "1.1" });
    expect(p.res.headers.get("content-type")).toMatch(/^application\/tei\+xml/);
    expect(p.fragment).toBe(slice);
    expect(p.fragment).toBe(outer(doc(), atLevel(expected(), 2)[0].el));
    expect(XMLValidator.validate(p.body)).toBe(true);
  });

  it("ref=1.1 links: no prev, next 1.2, up 1, first 1.1, last the last line of book 24", async () => {
    const lines = atLevel(expected(), 2);
    const p = await passage(ctx.tree, id, { ref: "1.1" });
    const l = linkParams(p.res);
    expect(l.prev).toBeUndefined();
    for (const rel of ["next", "up", "first", "last"]) expect(l[rel]?.get("id"), rel).toBe(id);
    expect(l.next.get("ref")).toBe(lines[1].ref);
    expect(l.next.get("ref")).toBe("1.2");
    expect(l.up.get("ref")).toBe("1");
    expect(l.first.get("ref")).toBe("1.1");
    expect(l.last.get("ref")).toBe(lines[lines.length - 1].ref);
    expect(l.last.get("ref")).toMatch(/^24\./);
  });

  it("ref=1 (a book) is the whole book as in the source", async () => {
    await expectSlice(ctx.tree, id, doc(), atLevel(expected(), 1)[0]);
    await expectSlice(ctx.tree, id, doc(), atLevel(expected(), 1)[23]);
  });

  it("a range across books (start=1.610&end=2.2) is well formed and keeps everything in between", async () => {
    const lines = atLevel(expected(), 2);
    const a = lines.findIndex((u) => u.ref === "1.610");
    const b = lines.findIndex((u) => u.ref === "2.2");
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
    const p = await passage(ctx.tree, id, { start: "1.610", end: "2.2" });
    expect(XMLValidator.validate(p.body)).toBe(true);
    const src = doc().src;
    const book1 = atLevel(expected(), 1)[0].el;
    const book2 = atLevel(expected(), 1)[1].el;
    const book2Open = src.slice(book2.start, book2.startEnd);
    expect(book2Open).toMatch(/^<div [^>]*n="2"/);
    expect(p.fragment).toContain(book2Open);
    for (const u of lines.slice(a, b + 1)) expect(p.fragment).toContain(outer(doc(), u.el));
    expect(p.fragment).not.toContain(outer(doc(), lines[a - 1].el));
    expect(p.fragment).not.toContain(outer(doc(), lines[b + 1].el));
    // The design: the start unit's open ancestors, the one source slice, the end unit's closes.
    const expectedFragment =
      src.slice(book1.start, book1.startEnd) + src.slice(lines[a].el.start, lines[b].el.end) + src.slice(book2.closeStart, book2.end);
    expect(p.fragment).toBe(expectedFragment);
  });

  it("the range's links are the neighbouring windows of the same size, and up is the whole document", async () => {
    const lines = atLevel(expected(), 2);
    const a = lines.findIndex((u) => u.ref === "1.610");
    const b = lines.findIndex((u) => u.ref === "2.2");
    const size = b - a + 1;
    const p = await passage(ctx.tree, id, { start: "1.610", end: "2.2" });
    const l = linkParams(p.res);
    expect([l.prev.get("start"), l.prev.get("end")]).toEqual([lines[a - size].ref, lines[a - 1].ref]);
    expect([l.next.get("start"), l.next.get("end")]).toEqual([lines[b + 1].ref, lines[b + size].ref]);
    expect(l.up.get("id")).toBe(id);
    expect(l.up.has("ref")).toBe(false);
    expect(l.up.has("start")).toBe(false);
    const nav = await getJson(ctx.tree, "navigation", { id, start: "1.610", end: "2.2", down: 0 });
    expect(nav.member.map((m: { ref: string }) => m.ref)).toEqual(lines.slice(a, b + 1).map((u) => u.ref));
    expect(nav.parent).toBeNull();
  });

  it("navigation of book 1 lists its lines, with the Resource as parent", async () => {
    const book1 = atLevel(expected(), 1)[0];
    const nav = await getJson(ctx.tree, "navigation", { id, ref: "1" });
    expect(nav.level).toBe(1);
    expect(nav.parent).toEqual({ "@type": "Resource", "@id": id });
    expect(nav.member.map((m: { ref: string }) => m.ref)).toEqual(
      atLevel(expected(), 2)
        .filter((u) => u.el.start > book1.el.start && u.el.end < book1.el.end)
        .map((u) => u.ref),
    );
  });

  it("the edition's Collection has maxCiteDepth 2 and citeStructure book > line", async () => {
    const c = await collection(ctx.tree, id);
    expect(c["@type"]).toBe("Resource");
    expect(c.maxCiteDepth).toBe(2);
    const declared = declaredCtsLevels(doc());
    expect(declared).toEqual(["book", "line"]);
    expect(c.citeStructure).toEqual(citeChain(declared));
    // The links a client discovers from the Collection answer work over HTTP.
    const download = await ctx.tree.fetch(c.download);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(readFileSync(file))).toBe(true);
    expect(Object.keys(links(download)).sort()).toEqual(["collection", "contents", "http://www.w3.org/ns/hydra/core#apiDocumentation"]);
    const references = await ctx.tree.fetch(c.references);
    expect(references.status).toBe(200);
    expect((await references.json()).member.map((m: { ref: string }) => m.ref)).toEqual(refsAt(expected(), 1));
  });

  it("translations listed in __cts__.xml without a file are Resources with no text", async () => {
    const cts = readDoc(join(folder, "__cts__.xml"));
    const listed = descendants(cts.root).filter((e) => ["edition", "translation", "commentary"].includes(e.local));
    const missing = listed.map((e) => e.attrs.urn).filter((urn) => !existsSync(join(folder, `${urn.split(":")[3]}.xml`)));
    expect(missing.length).toBeGreaterThan(0);
    const work = await collection(ctx.tree, "urn:cts:greekLit:tlg0012.tlg001");
    expect(work.member.map((m: { "@id": string }) => m["@id"]).sort()).toEqual(listed.map((e) => e.attrs.urn).sort());
    for (const urn of missing) {
      const c = await collection(ctx.tree, urn);
      expect(c["@type"]).toBe("Resource");
      expect(c.maxCiteDepth).toBe(0);
      const member = work.member.find((m: { "@id": string }) => m["@id"] === urn);
      expect(member["@type"]).toBe("Resource");
      const res = await ctx.tree.fetch(`${API}/document?${q({ id: urn })}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/tei\+xml/);
      const err = parseXml(await res.text());
      expect(err.root.local).toBe("error");
      expect(nsOf(err.root)).toBe(DTS_ERROR_NS);
      expect(err.root.attrs.statusCode).toBe("404");
      const description = err.root.children.find((c) => c.local === "description");
      expect(textOf(err.src, description!)).toMatch(/no text/i);
      const nav = await ctx.tree.fetch(`${API}/navigation?${q({ id: urn })}`);
      expect(nav.status).toBe(404);
      expect((await nav.json())["@type"]).toBe("Status");
    }
  });

  it("identifiers with ':' round-trip: plain and percent-encoded queries give byte-identical bodies", async () => {
    const enc = encodeURIComponent(id);
    expect(enc).toContain("%3A");
    const pairs: [string, string][] = [
      [`document?id=${id}&ref=1.1`, `document?id=${enc}&ref=1.1`],
      [`document?id=${id}&start=1.610&end=2.2`, `document?id=${enc}&start=1.610&end=2.2`],
      [`navigation?id=${id}&ref=1`, `navigation?id=${enc}&ref=1`],
      [`collection?id=${id}`, `collection?id=${enc}`],
    ];
    for (const [plain, encoded] of pairs) {
      const a = await ctx.tree.fetch(`${API}/${plain}`);
      const b = await ctx.tree.fetch(`${API}/${encoded}`);
      expect(a.status, plain).toBe(200);
      expect(b.status, encoded).toBe(200);
      expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer())), plain).toBe(true);
    }
  });
});

describe.skipIf(!HAS_SHARED)("Caesar, Gallic War (latinLit phi0448): Latin in 3 levels, English in 2", () => {
  const ctx = useCorpus(() => tempCorpus(LATIN, textgroup("phi0448", ["phi001"])));
  const folder = join(LATIN, "data/phi0448/phi001");
  const texts = [
    {
      id: "urn:cts:latinLit:phi0448.phi001.perseus-lat2",
      file: join(folder, "phi0448.phi001.perseus-lat2.xml"),
      levels: [{ path: "text/body/div/div[@n]" }, { path: "div[@n]" }, { path: "div[@n]" }],
    },
    {
      id: "urn:cts:latinLit:phi0448.phi001.perseus-eng2",
      file: join(folder, "phi0448.phi001.perseus-eng2.xml"),
      levels: [{ path: "text/body/div/div[@n]" }, { path: "div[@n]" }],
    },
  ];

  for (const t of texts) {
    it(`${t.id}: maxCiteDepth and citeStructure as the file declares`, async () => {
      const declared = declaredCtsLevels(readDoc(t.file));
      expect(declared).toHaveLength(t.levels.length);
      const c = await collection(ctx.tree, t.id);
      expect(c.maxCiteDepth).toBe(declared.length);
      expect(c.citeStructure).toEqual(citeChain(declared));
    });

    it(`${t.id}: navigation lists every unit of every level`, async () => {
      const e = expectedUnits(readDoc(t.file), t.levels);
      for (let level = 1; level <= t.levels.length; level++) {
        const refs = refsAt(e, level);
        expect(refs.length, `level ${level}`).toBeGreaterThan(0);
        expect(await navRefs(ctx.tree, t.id, { down: level }), `down=${level}`).toEqual(refs);
      }
      expect(await navRefs(ctx.tree, t.id, { down: "max" })).toEqual(refsAt(e, t.levels.length));
    });

    it(`${t.id}: a ref at each level is the source slice of its unit`, async () => {
      const doc = readDoc(t.file);
      const e = expectedUnits(doc, t.levels);
      for (let level = 1; level <= t.levels.length; level++) {
        for (const u of sample(atLevel(e, level))) await expectSlice(ctx.tree, t.id, doc, u);
      }
    });
  }
});

describe.skipIf(!HAS_SHARED)("Vergil (latinLit phi0690): Latin book/line, English book/card", () => {
  const ctx = useCorpus(() => tempCorpus(LATIN, textgroup("phi0690", ["phi002", "phi003"])));
  const line: Level[] = [{ path: "text/body/div/div[@n]" }, { path: ".//l[@n]" }];
  const card: Level[] = [{ path: "text/body/div/div[@n]" }, { path: "div[@n]" }];
  // phi002 is the Georgics, phi003 the Aeneid (see each work's __cts__.xml).
  const texts = ["phi002", "phi003"].flatMap((work) => {
    const folder = join(LATIN, "data/phi0690", work);
    return [
      { id: `urn:cts:latinLit:phi0690.${work}.perseus-lat2`, file: join(folder, `phi0690.${work}.perseus-lat2.xml`), levels: line },
      { id: `urn:cts:latinLit:phi0690.${work}.perseus-eng2`, file: join(folder, `phi0690.${work}.perseus-eng2.xml`), levels: card },
    ];
  });

  it("the Georgics' work lists both the Latin edition and the English translation", async () => {
    const cts = readDoc(join(LATIN, "data/phi0690/phi002/__cts__.xml"));
    expect(textOf(cts.src, descendants(cts.root).find((e) => e.local === "title")!)).toBe("Georgics");
    const work = await collection(ctx.tree, "urn:cts:latinLit:phi0690.phi002");
    expect(work.member.map((m: { "@id": string }) => m["@id"]).sort()).toEqual(
      texts
        .slice(0, 2)
        .map((t) => t.id)
        .sort(),
    );
  });

  for (const t of texts) {
    it(`${t.id}: citeTypes come from the CTS refsDecl's cRefPattern @n`, async () => {
      const declared = declaredCtsLevels(readDoc(t.file));
      expect(declared).toHaveLength(2);
      const c = await collection(ctx.tree, t.id);
      expect(c.maxCiteDepth).toBe(2);
      expect(c.citeStructure).toEqual(citeChain(declared));
      const top = await getJson(ctx.tree, "navigation", { id: t.id });
      expect(top.citeType).toBe(declared[0]);
      const deep = await getJson(ctx.tree, "navigation", { id: t.id, down: 2 });
      expect(deep.citeType).toBe(declared[1]);
    });

    it(`${t.id}: navigation and passages at both levels match the source`, async () => {
      const doc = readDoc(t.file);
      const e = expectedUnits(doc, t.levels);
      for (const level of [1, 2]) {
        const refs = refsAt(e, level);
        expect(refs.length).toBeGreaterThan(0);
        expect(new Set(refs).size).toBe(refs.length);
        expect(await navRefs(ctx.tree, t.id, { down: level }), `down=${level}`).toEqual(refs);
        for (const u of sample(atLevel(e, level))) await expectSlice(ctx.tree, t.id, doc, u);
      }
    });
  }

  it("the English Georgics is cited by card although an NTS refsDecl (book/line) comes first", async () => {
    const t = texts[1];
    const src = readDoc(t.file).src;
    expect(src.indexOf('<refsDecl n="NTS">')).toBeLessThan(src.indexOf('<refsDecl n="CTS">'));
    const firstCard = expectedUnits(readDoc(t.file), card).units.find((u) => u.level === 2)!;
    expect(firstCard.el.local).toBe("div");
    expect((await navRefs(ctx.tree, t.id, { down: 2 }))[0]).toBe(firstCard.ref);
  });
});

describe.skipIf(!HAS_SHARED)("Florus (latinLit phi1242): four citation levels", () => {
  const ctx = useCorpus(() => tempCorpus(LATIN, textgroup("phi1242", ["phi001"])));
  const id = "urn:cts:latinLit:phi1242.phi001.perseus-lat1";
  const file = join(LATIN, "data/phi1242/phi001/phi1242.phi001.perseus-lat1.xml");
  const levels: Level[] = [{ path: "text/body/div/div[@n]" }, { path: "div[@n]" }, { path: "div[@n]" }, { path: "div[@n]" }];

  it("is the Florus textgroup", () => {
    const cts = readDoc(join(LATIN, "data/phi1242/__cts__.xml"));
    expect(textOf(cts.src, cts.root.children.find((c) => c.local === "groupname")!)).toMatch(/Florus/);
  });

  it("has maxCiteDepth 4 and the declared citeStructure", async () => {
    const declared = declaredCtsLevels(readDoc(file));
    expect(declared).toHaveLength(4);
    const c = await collection(ctx.tree, id);
    expect(c.maxCiteDepth).toBe(4);
    expect(c.citeStructure).toEqual(citeChain(declared));
  });

  it("navigation down=4 and down=max list every level-4 unit", async () => {
    const e = expectedUnits(readDoc(file), levels);
    const refs = refsAt(e, 4);
    expect(refs.length).toBeGreaterThan(0);
    const nav = await getJson(ctx.tree, "navigation", { id, down: 4 });
    expect(nav.maxCiteDepth).toBe(4);
    expect(nav.citeType).toBe(declaredCtsLevels(readDoc(file))[3]);
    expect(nav.member.map((m: { ref: string }) => m.ref)).toEqual(refs);
    expect(nav.member.every((m: { level: number }) => m.level === 4)).toBe(true);
    expect(await navRefs(ctx.tree, id, { down: "max" })).toEqual(refs);
    for (const level of [1, 2, 3]) expect(await navRefs(ctx.tree, id, { down: level }), `down=${level}`).toEqual(refsAt(e, level));
  });

  it("a ref at level 4 is the source slice of its unit, with links at its level", async () => {
    const doc = readDoc(file);
    const units = atLevel(expectedUnits(doc, levels), 4);
    for (const u of sample(units)) await expectSlice(ctx.tree, id, doc, u);
    const p = await passage(ctx.tree, id, { ref: units[1].ref });
    const l = linkParams(p.res);
    expect(l.prev.get("ref")).toBe(units[0].ref);
    expect(l.next.get("ref")).toBe(units[2].ref);
    expect(l.up.get("ref")).toBe(units[1].ref.split(".").slice(0, 3).join("."));
    expect(l.last.get("ref")).toBe(units[units.length - 1].ref);
  });
});

describe.skipIf(!HAS_SHARED)("Ausonius, Precationes: TEI citeStructure form vs cRefPattern form", () => {
  const id = "urn:cts:latinLit:stoa0045.stoa026.perseus-lat2";
  const cts = useCorpus(() => tempCorpus(LATIN, textgroup("stoa0045", ["stoa026"])));
  const tei = useCorpus(() => tempCorpus(join(SHARED, "citeStructure"), ["data/stoa0045"]));
  const ctsFile = join(LATIN, "data/stoa0045/stoa026/stoa0045.stoa026.perseus-lat2.xml");

  /** Normalised text of the `<l>` elements of a passage. */
  const lineTexts = (fragment: string): string[] => {
    const doc = parseXml(`<x>${fragment}</x>`);
    const ls = [doc.root, ...descendants(doc.root)].filter((e) => e.local === "l");
    return ls.map((l) => textOf(doc.src, l));
  };

  it("the citeStructure file really declares citeStructure, the latinLit one cRefPattern", () => {
    const a = readDoc(join(SHARED, "citeStructure/data/stoa0045/stoa026/stoa0045.stoa026.perseus-lat2.xml"));
    expect(descendants(a.root).some((e) => e.local === "citeStructure")).toBe(true);
    expect(descendants(readDoc(ctsFile).root).some((e) => e.local === "cRefPattern")).toBe(true);
  });

  it("navigation reference lists are equal (down=1 and down=max), and match the source", async () => {
    const e = expectedUnits(readDoc(ctsFile), [{ path: "text/body/div/div[@n]" }, { path: "l[@n]" }]);
    const max = await navRefs(cts.tree, id, { down: "max" });
    expect(max).toEqual(refsAt(e, 2));
    expect(max.length).toBeGreaterThan(0);
    expect(await navRefs(tei.tree, id, { down: "max" })).toEqual(max);
    const top = await navRefs(cts.tree, id);
    expect(top).toEqual(refsAt(e, 1));
    expect(await navRefs(tei.tree, id)).toEqual(top);
  });

  it("every passage has the same text in both forms", async () => {
    const refs = [...(await navRefs(cts.tree, id)), ...(await navRefs(cts.tree, id, { down: "max" }))];
    for (const ref of refs) {
      const a = await passage(cts.tree, id, { ref });
      const b = await passage(tei.tree, id, { ref });
      const la = lineTexts(a.fragment);
      expect(la.length, ref).toBeGreaterThan(0);
      expect(lineTexts(b.fragment), ref).toEqual(la);
    }
  });

  it("the citeStructure form's citeTypes come from @unit", async () => {
    const c = await collection(tei.tree, id);
    expect(c.maxCiteDepth).toBe(2);
    expect(c.citeStructure).toEqual(citeChain(["poem", "line"]));
  });
});

describe.skipIf(!HAS_SHARED)("Homeric Hymn 33 (greekLit tlg0013): cRefPattern with escaped quotes", () => {
  const ctx = useCorpus(() => tempCorpus(GREEK, ["data/tlg0013"]));
  const folder = join(GREEK, "data/tlg0013/tlg033");
  const texts = ["perseus-grc2", "perseus-eng2"].map((v) => ({
    id: `urn:cts:greekLit:tlg0013.tlg033.${v}`,
    file: join(folder, `tlg0013.tlg033.${v}.xml`),
  }));

  for (const t of texts) {
    it(`${t.id}: the escaped pattern is read and passages resolve`, async () => {
      const doc = readDoc(t.file);
      expect(doc.src).toContain("@n=\\'$1\\'");
      const e = expectedUnits(doc, [{ path: "text/body//l[@n]" }]);
      const refs = refsAt(e, 1);
      expect(refs.length).toBeGreaterThan(0);
      expect(await navRefs(ctx.tree, t.id)).toEqual(refs);
      const c = await collection(ctx.tree, t.id);
      expect(c.maxCiteDepth).toBe(1);
      expect(c.citeStructure).toEqual(citeChain(["line"]));
      for (const u of sample(e.units)) await expectSlice(ctx.tree, t.id, doc, u);
      expect(refs[0]).toBe("1");
    });
  }
});

describe.skipIf(!HAS_SHARED)("MyCapytain edge cases (bare TEI files, native layout)", () => {
  const texts = join(SHARED, "mycapytain-fixtures/tests/testing_data/texts");
  const ctx = useCorpus(() =>
    tempCorpus(
      texts,
      readdirSync(texts).filter((f) => f.endsWith(".xml")),
    ),
  );
  const fileOf = (name: string): string => join(texts, name);
  const ids = new Map<string, string>();

  beforeAll(async () => {
    // Which resource is which file: compare each resource's download with the files.
    const root = await getJson(ctx.tree, "collection", {});
    for (const m of root.member) {
      const res = await ctx.tree.fetch(`${API}/document?${q({ id: m["@id"] })}`);
      const body = await res.text();
      for (const name of readdirSync(texts).filter((f) => f.endsWith(".xml"))) {
        if (readFileSync(fileOf(name), "utf8") === body) ids.set(name, m["@id"]);
      }
    }
  });

  it("serves every file as a Resource, with its file name as id (no idno URN in the headers)", async () => {
    const names = readdirSync(texts).filter((f) => f.endsWith(".xml"));
    for (const name of names) {
      const header = readDoc(fileOf(name)).root.children.find((c) => c.local === "teiHeader")!;
      const urnIdno = descendants(header).some((e) => e.local === "idno" && /^(urn|uri)$/i.test(e.attrs.type ?? ""));
      expect(urnIdno, name).toBe(false);
      expect(ids.get(name), name).toBe(name.slice(0, -4));
    }
  });

  describe("duplicate_references.xml", () => {
    const name = "duplicate_references.xml";
    const levels: Level[] = [{ path: "text/body/div/div[@n]" }, { path: "div[@n]" }, { path: "l[@n]" }];

    it("serves each reference once", async () => {
      const id = ids.get(name)!;
      const e = expectedUnits(readDoc(fileOf(name)), levels);
      expect(e.duplicates.length).toBeGreaterThan(0);
      for (const level of [1, 2, 3]) {
        const refs = await navRefs(ctx.tree, id, { down: level });
        expect(new Set(refs).size, `down=${level}`).toBe(refs.length);
        // Every served reference is in the source, and every unit outside a repeated one is served.
        const all = new Set(refsAt(e, level));
        for (const r of refs) expect(all.has(r), r).toBe(true);
        for (const u of atLevel(e, level).filter((x) => !x.shadowed)) expect(refs, u.ref).toContain(u.ref);
      }
    });

    it("a duplicated reference answers with its first occurrence", async () => {
      const id = ids.get(name)!;
      const doc = readDoc(fileOf(name));
      const e = expectedUnits(doc, levels);
      for (const dup of e.duplicates.filter((d) => e.duplicates.every((o) => o === d || !d.ref.startsWith(o.ref + ".")))) {
        const first = e.units.find((u) => u.ref === dup.ref)!;
        if (first.shadowed) continue;
        await expectSlice(ctx.tree, id, doc, first);
      }
    });

    it("the build report warns about the first duplicate, with its line", () => {
      const doc = readDoc(fileOf(name));
      const first = expectedUnits(doc, levels).duplicates[0];
      const warnings = warningsFor(ctx.tree, name).filter((w) => /duplicate/i.test(w.message));
      expect(warnings.length).toBeGreaterThan(0);
      const w = warnings.find((x) => x.message.includes(`"${first.ref}"`));
      expect(w, `a warning naming "${first.ref}"`).toBeDefined();
      expect(w!.line).toBe(lineOf(doc.src, first.el.start));
    });
  });

  describe("empty_references.xml", () => {
    const name = "empty_references.xml";
    const levels: Level[] = [{ path: "text/body/div/div[@n]" }, { path: "div[@n]" }, { path: "l[@n]" }];

    it("skips units with an empty @n (and what is below them)", async () => {
      const id = ids.get(name)!;
      const e = expectedUnits(readDoc(fileOf(name)), levels);
      expect(e.empty.length).toBeGreaterThan(0);
      for (const level of [1, 2, 3]) {
        const refs = await navRefs(ctx.tree, id, { down: level });
        expect(refs, `down=${level}`).toEqual(refsAt(e, level));
        for (const r of refs)
          expect(
            r.split(".").every((part) => part.length > 0),
            r,
          ).toBe(true);
      }
    });

    it("warns about each empty @n, with its line", () => {
      const doc = readDoc(fileOf(name));
      const e = expectedUnits(doc, levels);
      const lines = warningsFor(ctx.tree, name)
        .filter((w) => /empty/i.test(w.message))
        .map((w) => w.line);
      for (const el of e.empty) expect(lines, `line of <${el.name} n="">`).toContain(lineOf(doc.src, el.start));
    });
  });

  describe("text_or_xpath.xml", () => {
    const name = "text_or_xpath.xml";
    const levels: Level[] = [{ path: "text/body/div/div[@n]" }, { path: "l|p[@n]" }];

    it("the *[self::tei:l or self::tei:p] pattern gives both l and p units", async () => {
      const id = ids.get(name)!;
      const doc = readDoc(fileOf(name));
      const e = expectedUnits(doc, levels);
      const units = atLevel(e, 2);
      expect(units.some((u) => u.el.local === "p")).toBe(true);
      expect(units.some((u) => u.el.local === "l")).toBe(true);
      expect(await navRefs(ctx.tree, id, { down: 2 })).toEqual(units.map((u) => u.ref));
      await expectSlice(ctx.tree, id, doc, units.find((u) => u.el.local === "p")!);
      await expectSlice(ctx.tree, id, doc, units.find((u) => u.el.local === "l")!);
    });
  });

  describe("xml_id.xml", () => {
    const name = "xml_id.xml";
    const levels: Level[] = [{ path: "text/body/lg/l[@n]" }, { path: ".//w[@xml:id]", attr: "xml:id" }];

    it("builds level-2 references from @xml:id", async () => {
      const id = ids.get(name)!;
      const doc = readDoc(fileOf(name));
      const e = expectedUnits(doc, levels);
      const words = atLevel(e, 2);
      expect(words.length).toBeGreaterThan(0);
      expect(words[0].ref).toBe(`1.${words[0].el.attrs["xml:id"]}`);
      const c = await collection(ctx.tree, id);
      expect(c.maxCiteDepth).toBe(2);
      expect(await navRefs(ctx.tree, id)).toEqual(refsAt(e, 1));
      expect(await navRefs(ctx.tree, id, { down: 2 })).toEqual(words.map((u) => u.ref));
      for (const u of sample(words)) await expectSlice(ctx.tree, id, doc, u);
    });
  });

  describe("sample2.xml", () => {
    const name = "sample2.xml";
    const levels: Level[] = [
      { path: "text/body/div[@type='edition']/div[@subtype='book'][@n]" },
      { path: "//div[@subtype='section'][@n]" },
    ];

    it("the book pattern that selects below its value is reported", () => {
      const src = readDoc(fileOf(name)).src;
      expect(src).toMatch(/cRefPattern n="book" matchPattern="\(\.\+\)" replacementPattern="[^"]*\$2/);
      const warnings = warningsFor(ctx.tree, name);
      expect(
        warnings.some((w) => /book/.test(w.message)),
        JSON.stringify(warnings),
      ).toBe(true);
    });

    it("books and sections resolve", async () => {
      const id = ids.get(name)!;
      const doc = readDoc(fileOf(name));
      const e = expectedUnits(doc, levels);
      expect(refsAt(e, 2).length).toBeGreaterThan(1);
      expect(await navRefs(ctx.tree, id)).toEqual(refsAt(e, 1));
      expect(await navRefs(ctx.tree, id, { down: 2 })).toEqual(refsAt(e, 2));
      for (const u of e.units) await expectSlice(ctx.tree, id, doc, u);
    });
  });
});

describe.skipIf(!HAS_SHARED)("formulae-open (CapiTainS 3 metadata)", () => {
  const from = join(SHARED, "formulae-open");
  const ctx = useCorpus(() => tempCorpus(from, ["data"]));
  const groupFile = join(from, "data/anjou_archives/marchegay_bessiaco/__capitains__.xml");

  /** The `members/collection` entries of a __capitains__.xml file. */
  const membersOf = (file: string): El[] => {
    const doc = readDoc(file);
    const members = doc.root.children.find((c) => c.local === "members")!;
    return members.children.filter((c) => c.local === "collection");
  };
  const identifierOf = (file: string, el: El): string => {
    const child = el.children.find((c) => c.local === "identifier");
    return child ? textOf(readDoc(file).src, child) : el.attrs.identifier;
  };
  const groupId = (): string => identifierOf(groupFile, readDoc(groupFile).root);

  it("the collection tree holds the 4 charters, each with its readable edition", async () => {
    const works = membersOf(groupFile).map((m) => ({
      id: identifierOf(groupFile, m),
      file: join(dirname(groupFile), m.attrs.path),
    }));
    expect(works).toHaveLength(4);
    const group = await collection(ctx.tree, groupId());
    expect(group["@type"]).toBe("Collection");
    expect(group.totalItems).toBe(4);
    expect(group.member.map((m: { "@id": string }) => m["@id"]).sort()).toEqual(works.map((w) => w.id).sort());
    for (const work of works) {
      const editions = membersOf(work.file).filter((m) => m.attrs.readable === "true");
      expect(editions.length).toBeGreaterThan(0);
      const c = await collection(ctx.tree, work.id);
      expect(c.member.map((m: { "@id": string }) => m["@id"]).sort()).toEqual(editions.map((e) => identifierOf(work.file, e)).sort());
      for (const m of c.member) {
        expect(m["@type"]).toBe("Resource");
        const r = await collection(ctx.tree, m["@id"]);
        expect(r.maxCiteDepth).toBe(1);
      }
    }
    // The group is reachable from the root collection through its textgroup.
    const root = await getJson(ctx.tree, "collection", {});
    const top = readDoc(join(from, "data/anjou_archives/__capitains__.xml"));
    const topId = identifierOf(join(from, "data/anjou_archives/__capitains__.xml"), top.root);
    expect(root.member.map((m: { "@id": string }) => m["@id"])).toContain(topId);
    const anjou = await collection(ctx.tree, topId);
    expect(anjou.member.map((m: { "@id": string }) => m["@id"])).toContain(groupId());
  });

  it("passage ref=1 of a charter is its charta div, as in the source", async () => {
    const work = membersOf(groupFile)[0];
    const workFile = join(dirname(groupFile), work.attrs.path);
    const edition = membersOf(workFile).find((m) => m.attrs.readable === "true")!;
    const id = identifierOf(workFile, edition);
    const doc = readDoc(join(dirname(workFile), edition.attrs.path));
    const e = expectedUnits(doc, [{ path: "text/body/div/div[@n]" }]);
    expect(refsAt(e, 1)).toContain("1");
    expect(await navRefs(ctx.tree, id)).toEqual(refsAt(e, 1));
    await expectSlice(ctx.tree, id, doc, e.units.find((u) => u.ref === "1")!);
  });
});

describe.skipIf(!HAS_SHARED)("priapeia: Dublin Core from structured metadata", () => {
  const from = join(SHARED, "priapeia");
  const ctx = useCorpus(() => tempCorpus(from, ["data"]));
  const DC_ELEMENTS = new Set([
    "title",
    "creator",
    "subject",
    "description",
    "publisher",
    "contributor",
    "date",
    "type",
    "format",
    "identifier",
    "source",
    "language",
    "relation",
    "coverage",
    "rights",
  ]);

  it("the Latin edition's Collection carries the dc/dct terms of its structured-metadata", async () => {
    const file = join(from, "data/phi1103/phi001/__cts__.xml");
    const doc = readDoc(file);
    const edition = descendants(doc.root).find((e) => e.local === "edition")!;
    const id = edition.attrs.urn;
    const block = edition.children.find((c) => c.local === "structured-metadata")!;
    const terms = block.children.filter(
      (c) => ["http://purl.org/dc/elements/1.1/", "http://purl.org/dc/terms/"].includes(nsOf(c)) && DC_ELEMENTS.has(c.local),
    );
    expect(terms.length).toBeGreaterThan(3);
    const c = await collection(ctx.tree, id);
    expect(c["@type"]).toBe("Resource");
    expect(c.dublinCore).toBeDefined();
    for (const t of terms) {
      const value = textOf(doc.src, t);
      const got: unknown[] = c.dublinCore[t.local];
      expect(got, `dublinCore.${t.local}`).toBeDefined();
      if (t.local === "language") {
        expect(
          got.some((v) => v === value || (value === "lat" && v === "la")),
          `language ${value}`,
        ).toBe(true);
      } else {
        const lang = t.attrs["xml:lang"];
        expect(
          got.some((v) => v === value || (lang !== undefined && (v as { value?: string })?.value === value)),
          `${t.local}: ${value}`,
        ).toBe(true);
      }
    }
  });
});
