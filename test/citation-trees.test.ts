// Several citation trees in one document: refsDecl[@n] names each, @default="true" picks the
// default. Small documents written for each case.

import { describe, expect, it } from "vitest";
import { CitedText } from "../builder/citation/cited-text.js";
import { type DocIndex, indexDocument } from "../builder/citation/indexer.js";
import { indexFromJson, indexToJson } from "../builder/tree/stored-data.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const tei = (refsDecls: string, body: string): Uint8Array =>
  bytes(
    `<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt></fileDesc>` +
      `<encodingDesc>${refsDecls}</encodingDesc></teiHeader><text><body>${body}</body></text></TEI>`,
  );

/** Books hold sections, sections hold pages, pages hold lines: two ways to cite the same text. */
const BODY =
  `<div type="book" n="1"><div type="section" n="1"><div type="page" n="p1"><l n="1">a</l><l n="2">b</l></div></div>` +
  `<div type="section" n="2"><div type="page" n="p2"><l n="3">c</l></div></div></div>` +
  `<div type="book" n="2"><div type="section" n="1"><div type="page" n="p3"><l n="4">d</l></div></div></div>`;

const bookSection = (attrs = ""): string =>
  `<refsDecl n="book-section"${attrs}><citeStructure unit="book" match="//body/div[@type='book']" use="@n">` +
  `<citeStructure unit="section" match="div[@type='section']" use="@n" delim="."/></citeStructure></refsDecl>`;
const page = (attrs = ' n="page"'): string =>
  `<refsDecl${attrs}><citeStructure unit="page" match="//div[@type='page']" use="@n">` +
  `<citeStructure unit="line" match="l" use="@n" delim=":"/></citeStructure></refsDecl>`;
const cts =
  `<refsDecl n="CTS"><cRefPattern n="section" matchPattern="(\\w+).(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:div[@n='$1']/tei:div[@n='$2'])"/>` +
  `<cRefPattern n="book" matchPattern="(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:div[@n='$1'])"/></refsDecl>`;

/** Each unit as ref, level, parent's ref and citeType. */
const shape = (index: DocIndex): string[] =>
  index.units.map((u) => `${u.ref} ${u.level} ${u.parent < 0 ? "-" : index.units[u.parent].ref} ${u.citeType}`);

const BOOK_SECTION = ["1 1 - book", "1.1 2 1 section", "1.2 2 1 section", "2 1 - book", "2.1 2 2 section"];
const PAGE_LINE = ["p1 1 - page", "p1:1 2 p1 line", "p1:2 2 p1 line", "p2 1 - page", "p2:3 2 p2 line", "p3 1 - page", "p3:4 2 p3 line"];

const roundTrip = (index: DocIndex): DocIndex => indexFromJson(indexToJson(index));

describe("citation trees", () => {
  it("reads a second citeStructure refsDecl as a named tree; the first stays the default", () => {
    const source = tei(bookSection() + page(), BODY);
    const { index, problems } = indexDocument(source);
    expect(problems).toEqual([]);
    expect(shape(index)).toEqual(BOOK_SECTION);
    expect(index.citeStructure).toEqual([{ citeType: "book", citeStructure: [{ citeType: "section" }] }]);
    expect(index.trees?.map((t) => t.identifier)).toEqual(["page"]);
    const other = index.trees![0].index;
    expect(other.scheme).toBe("citeStructure");
    expect(other.maxCiteDepth).toBe(2);
    expect(other.citeStructure).toEqual([{ citeType: "page", citeStructure: [{ citeType: "line" }] }]);
    expect(shape(other)).toEqual(PAGE_LINE);
    expect(other.trees).toBeUndefined();
    // Same source: a unit's offsets cut the same element in either tree.
    const line = other.units.find((u) => u.ref === "p1:2")!;
    expect(new TextDecoder().decode(source.subarray(line.start, line.end))).toBe(`<l n="2">b</l>`);

    const back = roundTrip(index);
    expect(back).toEqual(index);
    expect(indexToJson(back)).toBe(indexToJson(index));
  });

  it("serves each tree through CitedText", () => {
    const source = tei(bookSection() + page(), BODY);
    const text = new CitedText("urn:x", indexDocument(source).index, source);
    expect(text.treeIdentifiers()).toEqual(["page"]);
    const pages = text.tree("page")!;
    expect(pages.id).toBe("urn:x");
    expect(pages.source).toBe(source);
    expect(pages.units[pages.find("p2:3")!].citeType).toBe("line");
    expect(pages.unitsAt(2, pages.find("p1")).map((u) => pages.units[u].ref)).toEqual(["p1:1", "p1:2"]);
    expect(text.find("p1")).toBeUndefined();
    expect(text.tree("page")).toBe(pages);
    expect(text.tree("book-section")).toBeUndefined();
    expect(text.tree("nope")).toBeUndefined();
    expect(pages.treeIdentifiers()).toEqual([]);
  });

  it('takes the refsDecl marked @default="true" as the default, wherever it is', () => {
    const { index, problems } = indexDocument(tei(bookSection() + page(' n="page" default="true"'), BODY));
    expect(problems).toEqual([]);
    expect(shape(index)).toEqual(PAGE_LINE);
    expect(index.trees?.map((t) => t.identifier)).toEqual(["book-section"]);
    expect(shape(index.trees![0].index)).toEqual(BOOK_SECTION);
    expect(roundTrip(index)).toEqual(index);
  });

  it("offers CTS cRefPatterns beside a citeStructure, the citeStructure being the default as before", () => {
    const { index, problems } = indexDocument(tei(cts + page(), BODY));
    expect(problems).toEqual([]);
    expect(index.scheme).toBe("citeStructure");
    expect(shape(index)).toEqual(PAGE_LINE);
    expect(index.trees?.map((t) => t.identifier)).toEqual(["CTS"]);
    const other = index.trees![0].index;
    expect(other.scheme).toBe("cts");
    expect(shape(other)).toEqual(BOOK_SECTION);
    expect(other.citeStructure).toEqual([{ citeType: "book", citeStructure: [{ citeType: "section" }] }]);
    expect(roundTrip(index)).toEqual(index);
  });

  it("skips, with a warning, trees that cannot be told apart; refState-only refsDecls silently", () => {
    const refState = `<refsDecl><refState unit="book"/><refState unit="section"/></refsDecl>`;
    const lines = `<citeStructure unit="line" match="//l" use="@n"/>`;
    const decls =
      bookSection() +
      page() +
      `<refsDecl n="page">${lines}</refsDecl>` +
      `<refsDecl>${lines}</refsDecl>` +
      `<refsDecl n="book-section">${lines}</refsDecl>` +
      refState;
    const { index, problems } = indexDocument(tei(decls, BODY));
    expect(shape(index)).toEqual(BOOK_SECTION);
    expect(index.trees?.map((t) => t.identifier)).toEqual(["page"]);
    expect(shape(index.trees![0].index)).toEqual(PAGE_LINE);
    expect(problems.map((p) => p.message)).toEqual([
      'refsDecl n="page" repeats the @n of another citation tree; only the first is offered',
      "refsDecl without @n: its citation tree cannot be named, so it is not offered",
      'refsDecl n="book-section" repeats the @n of another citation tree; only the default is offered',
    ]);
    expect(problems.every((p) => p.line === 1 && p.column! > 1)).toBe(true);
  });

  it("says which tree a problem of another tree belongs to", () => {
    const body = `<div type="book" n="1"><div type="page" n="p1"><l n="1">a</l></div><div type="page" n="p1"><l n="2">b</l></div></div>`;
    const { index, problems } = indexDocument(tei(bookSection() + page(), body));
    expect(shape(index.trees![0].index)).toEqual(["p1 1 - page", "p1:1 2 p1 line"]);
    expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(/^tree "page": duplicate reference "p1"/)]);
  });

  it("keeps a tree that matches nothing, saying so of the tree, not the document", () => {
    const milestones = `<refsDecl n="ms"><citeStructure unit="ms" match="//milestone" use="@n"/></refsDecl>`;
    const { index, problems } = indexDocument(tei(bookSection() + milestones, BODY));
    expect(index.trees?.map((t) => [t.identifier, t.index.units.length])).toEqual([["ms", 0]]);
    expect(problems.map((p) => p.message)).toEqual(['tree "ms": the citeStructure declaration matches nothing: the tree has no passages']);
  });

  it('keeps the usual default when the @default="true" refsDecl cannot be read', () => {
    const broken = `<refsDecl n="broken" default="true"><citeStructure unit="x" match="div[position() = 1]" use="@n"/></refsDecl>`;
    const { index, problems } = indexDocument(tei(cts + broken, BODY));
    // readScheme's choice: the first citeStructure, here the broken one, so the fallback.
    expect(index.scheme).toBe("fallback");
    expect(index.trees?.map((t) => t.identifier)).toEqual(["CTS"]);
    expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(/^citeStructure not understood .*using div\/l\/p\[@n\]$/)]);

    // Here readScheme chooses the page tree; the broken one is no tree at all.
    const page2 = indexDocument(tei(page() + broken, BODY));
    expect(shape(page2.index)).toEqual(PAGE_LINE);
    expect(page2.index.trees).toBeUndefined();
    expect(page2.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^refsDecl n="broken" is marked @default="true" but its citeStructure is not understood .*; not the default$/),
    ]);
  });

  it("leaves the index of a one-tree document as it was: no trees key, same JSON", () => {
    const refState = `<refsDecl><refState unit="book"/></refsDecl>`;
    const source = tei(cts + refState, `<div n="1"><div n="2">x</div></div>`);
    const { index, problems } = indexDocument(source);
    expect(problems).toEqual([]);
    expect("trees" in index).toBe(false);
    expect(new CitedText("urn:x", index, source).treeIdentifiers()).toEqual([]);
    const json = indexToJson(index);
    // As written by the indexer before trees existed (computed with it, then pasted).
    expect(json).toBe(
      `{"v":1,"scheme":"cts","maxCiteDepth":2,"citeStructure":[{"citeType":"book","citeStructure":[{"citeType":"section"}]}],` +
        `"doctype":null,"length":553,"citeTypes":["book","section"],` +
        `"units":[["1",1,-1,3,498,533,0],["1.2",2,0,4,509,527,1]],` +
        `"elements":[[0,41,547,553,-1,["xmlns=\\"http://www.tei-c.org/ns/1.0\\""]],[486,492,540,547,0],[492,498,533,540,1],[498,509,527,533,2],[509,520,521,527,3]]}`,
    );
    expect("trees" in indexFromJson(json)).toBe(false);
  });
});
