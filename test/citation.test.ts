// The XML scanner, the XPath subset, the scheme reader and the index, on small documents
// written for each case.

import { describe, expect, it } from "vitest";
import { CitedText } from "../builder/citation/cited-text.js";
import { indexDocument } from "../builder/citation/indexer.js";
import { compilePath, XPathError } from "../builder/citation/xpath.js";
import { renderNavigation } from "../builder/render/navigation.js";
import { makeSite } from "../builder/site.js";
import { encodeName, requestToPath } from "../builder/tree/layout.js";
import { type OpenTag, scanXml, XmlSyntaxError } from "../builder/xml/scan.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const TEI_OPEN = '<TEI xmlns="http://www.tei-c.org/ns/1.0">';
const header = (refsDecl = ""): string =>
  `<teiHeader><fileDesc><titleStmt><title>t</title></titleStmt></fileDesc><encodingDesc>${refsDecl}</encodingDesc></teiHeader>`;
const tei = (refsDecl: string, body: string): Uint8Array => bytes(`${TEI_OPEN}${header(refsDecl)}<text><body>${body}</body></text></TEI>`);

describe("scanXml", () => {
  it("reports elements with exact UTF-8 byte offsets", () => {
    const text = `<?xml version="1.0"?><!-- <x> --><a><b n="α">ü<![CDATA[<c>]]></b><d/></a>`;
    const buf = bytes(text);
    const seen: [string, number, number][] = [];
    scanXml(buf, {
      open() {},
      close(tag: OpenTag, _s: number, end: number) {
        seen.push([tag.qname, tag.start, end]);
      },
    });
    const decode = (a: number, b: number): string => new TextDecoder().decode(buf.subarray(a, b));
    const b = seen.find((s) => s[0] === "b")!;
    expect(decode(b[1], b[2])).toBe(`<b n="α">ü<![CDATA[<c>]]></b>`);
    const d = seen.find((s) => s[0] === "d")!;
    expect(decode(d[1], d[2])).toBe("<d/>");
  });

  it("skips a DOCTYPE whose internal subset holds > and quotes", () => {
    const text = `<!DOCTYPE TEI [<!ENTITY x "a > b"> <!-- ] > -->]><TEI>&x;</TEI>`;
    let doctype = "";
    scanXml(bytes(text), { open() {}, close() {}, doctype: (s, e) => (doctype = text.slice(s, e)) });
    expect(doctype).toBe(`<!DOCTYPE TEI [<!ENTITY x "a > b"> <!-- ] > -->]>`);
  });

  it.each([
    ["<a><b></a>", 1, 7, /does not match/],
    ["<a>\n  <b>\n</a>", 3, 1, /does not match/],
    ["<a x=1/>", 1, 6, /must be quoted/],
    ["<a x='1' x='2'/>", 1, 10, /duplicate attribute/],
    ["<a>", 1, 1, /not closed/],
    ["<a/><b/>", 1, 5, /second root/],
    ["<p:a/>", 1, 1, /prefix "p" is not declared/],
  ])("rejects %j at line %i, column %i", (text, line, column, reason) => {
    try {
      scanXml(bytes(text), { open() {}, close() {} });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(XmlSyntaxError);
      expect((e as XmlSyntaxError).line).toBe(line);
      expect((e as XmlSyntaxError).column).toBe(column);
      expect((e as XmlSyntaxError).reason).toMatch(reason);
    }
  });
});

describe("compilePath", () => {
  it("reads the paths of real cRefPatterns, escaped quotes included", () => {
    const p = compilePath("/tei:TEI/tei:text/tei:body/tei:div//tei:l[@n=\\'$1\\']");
    expect(p.absolute).toBe(true);
    expect(p.steps.map((s) => [s.axis, s.local])).toEqual([
      ["child", "TEI"],
      ["child", "text"],
      ["child", "body"],
      ["child", "div"],
      ["descendant", "l"],
    ]);
    expect(p.steps[4].predicates).toEqual([{ kind: "attr", name: "n", capture: 1 }]);
    const q = compilePath("*[self::tei:l or self::tei:p][@n='$2' and @subtype='x']");
    expect(q.steps[0].local).toBeNull();
    expect(q.steps[0].predicates[0]).toMatchObject({ kind: "or" });
  });

  it("rejects what it does not understand", () => {
    expect(() => compilePath("div[position() = 1]")).toThrow(XPathError);
    expect(() => compilePath("div[@n='1'")).toThrow(XPathError);
  });
});

describe("indexDocument", () => {
  it("selects refsDecl[@n='CTS'] even when another refsDecl comes first", () => {
    const nts = `<refsDecl n="NTS"><cRefPattern n="x" matchPattern="(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:p[@n='$1'])"/></refsDecl>`;
    const cts =
      `<refsDecl n="CTS"><cRefPattern n="line" matchPattern="(\\w+).(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:div[@n='$1']/tei:l[@n='$2'])"/>` +
      `<cRefPattern n="book" matchPattern="(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:div[@n='$1'])"/></refsDecl>`;
    const { index, problems } = indexDocument(tei(nts + cts, `<p n="9">x</p><div n="1"><l n="1">a</l><l n="2">b</l></div>`));
    expect(problems).toEqual([]);
    expect(index.scheme).toBe("cts");
    expect(index.units.map((u) => `${u.ref}:${u.citeType}`)).toEqual(["1:book", "1.1:line", "1.2:line"]);
  });

  it("reads sibling citeStructures, each with its citeType, and the delimiter of each level", () => {
    const decl =
      `<refsDecl><citeStructure unit="chapter" match="//body/div[@type='chapter']" use="@n"><citeStructure unit="verse" match="l" use="@n" delim=":"/></citeStructure>` +
      `<citeStructure unit="appendix" match="//body/div[@type='appendix']" use="@n"/></refsDecl>`;
    const source = tei(
      decl,
      `<div type="chapter" n="1"><l n="1">a</l><l n="2">b</l></div><div type="chapter" n="2"><l n="1">c</l></div><div type="appendix" n="A">z</div>`,
    );
    const { index } = indexDocument(source);
    expect(index.units.map((u) => `${u.ref}:${u.citeType}`)).toEqual([
      "1:chapter",
      "1:1:verse",
      "1:2:verse",
      "2:chapter",
      "2:1:verse",
      "A:appendix",
    ]);
    expect(index.citeStructure).toEqual([{ citeType: "chapter", citeStructure: [{ citeType: "verse" }] }, { citeType: "appendix" }]);
    const nav = renderNavigation(makeSite(), { kind: "navigation", id: "x", down: 1 }, new CitedText("x", index, source));
    const body = JSON.parse(nav.body as string);
    expect(body.citeType).toBe("chapter");
    expect(body.member).toEqual([
      { ref: "1", level: 1 },
      { ref: "2", level: 1 },
      { ref: "A", level: 1, citeType: "appendix" },
    ]);
  });

  it("falls back to div/l/p with @n, looking through edition divs", () => {
    const { index } = indexDocument(tei("", `<div type="edition" n="urn:x"><div n="1" subtype="book"><p n="1">a</p></div></div>`));
    expect(index.scheme).toBe("fallback");
    expect(index.units.map((u) => `${u.ref}:${u.citeType}`)).toEqual(["1:book", "1.1:paragraph"]);
    expect(index.maxCiteDepth).toBe(2);
  });

  it("reads TEI P4 numbered divisions (div1, div2) in the fallback, without a namespace", () => {
    const source = bytes(
      `<TEI.2><teiHeader><fileDesc/></teiHeader><text><body><div1 type="chapter" n="1"><div2 type="section" n="1"><p>a</p></div2><div2 type="section" n="2"><p>b</p></div2></div1></body></text></TEI.2>`,
    );
    const { index } = indexDocument(source);
    expect(index.units.map((u) => `${u.ref}:${u.citeType}`)).toEqual(["1:chapter", "1.1:section", "1.2:section"]);
  });

  it("orders cRefPatterns by the values their XPath takes when matchPattern miscounts them", () => {
    // As in latinLit phi1020.phi002: the poem pattern's matchPattern has one group, its XPath two.
    const decl =
      `<refsDecl n="CTS"><cRefPattern n="line" matchPattern="(\\w+).(\\w+).(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:div[@n='$1']/tei:div[@n='$2']/tei:l[@n='$3'])"/>` +
      `<cRefPattern n="poem" matchPattern="(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:div[@n='$1']/tei:div[@n='$2'])"/>` +
      `<cRefPattern n="book" matchPattern="(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:div[@n='$1'])"/></refsDecl>`;
    const { index, problems } = indexDocument(tei(decl, `<div n="1"><div n="2"><l n="3">a</l></div></div>`));
    expect(index.units.map((u) => `${u.ref}:${u.citeType}`)).toEqual(["1:book", "1.2:poem", "1.2.3:line"]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/"poem": matchPattern takes 1 value, but the pattern is level 2/),
    ]);
    expect(problems[0].line).toBe(1);
  });

  it("serves the first of duplicate references and warns with the line", () => {
    const { index, problems } = indexDocument(tei("", `<div n="1"><l n="1">a</l>\n<l n="1">b</l></div>`));
    expect(index.units.map((u) => u.ref)).toEqual(["1", "1.1"]);
    expect(problems[0]).toMatchObject({ line: 2, message: expect.stringMatching(/duplicate reference "1.1"/) });
  });

  it("warns when declared patterns match nothing", () => {
    const decl = `<refsDecl n="CTS"><cRefPattern n="x" matchPattern="(\\w+)" replacementPattern="#xpath(/tei:TEI/tei:text/tei:body/tei:milestone[@n='$1'])"/></refsDecl>`;
    const { index, problems } = indexDocument(tei(decl, `<p n="1">a</p>`));
    expect(index.units).toEqual([]);
    expect(problems.map((p) => p.message).join()).toMatch(/matches nothing/);
  });
});

describe("encodeName and requestToPath", () => {
  it("keeps names distinct and safe", () => {
    const values = ["a", "A", ".", "..", "a b", "a_20b", "α", "x;y", "1/2", "../../etc/passwd", "urn:cts:latinLit:phi0448"];
    const names = values.map(encodeName);
    expect(new Set(names).size).toBe(values.length);
    for (const n of names) {
      expect(n).toMatch(/^[a-z0-9._-]+$/);
      expect(n.startsWith(".")).toBe(false);
    }
    const long = encodeName("x".repeat(400));
    expect(long.length).toBeLessThan(200);
    expect(long).not.toBe(encodeName("x".repeat(401)));
  });

  it("never climbs out of the tree", () => {
    const path = requestToPath({ kind: "document", id: "../../etc", ref: "../passwd" })!;
    expect(path.split("/")).not.toContain("..");
    expect(path).toBe("document/_2e._2f.._2fetc/r._2e._2fpasswd.xml");
  });
});
