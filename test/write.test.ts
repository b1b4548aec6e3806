// The write API over real HTTP on a temporary copy of the embedded corpus: POST, PUT and
// DELETE as the spec and issue 4 describe them, the checks on bodies, tokens and
// restrictions, and what a write leaves on disk (a minimal diff, the rest of the tree untouched).

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFolder } from "../builder/tree/folder-store.js";
import { documentFolder, MANIFEST, navigationFolder } from "../builder/tree/layout.js";
import { CAESAR, CAESAR_FILE, CATULLUS, CATULLUS_FILE, coll, doc, GEORGICS, LIVY, LIVY_FILE, nav, q } from "./helpers/embedded.js";
import { API_DOC_REL, EMBEDDED, links, serveCorpus, snapshotTree } from "./helpers/tree.js";
import { changedLines, DTS_NS, errorOf, fragment, TEI_NS, TOKEN, type WriteTree, writeTree } from "./helpers/write-server.js";

let t: WriteTree;
beforeAll(async () => {
  t = await writeTree();
});
afterAll(async () => {
  await t?.close();
});

async function expectError(r: Response, status: number, ...words: (string | RegExp)[]): Promise<string> {
  const { description, body } = await errorOf(r);
  expect(r.status, description).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/tei+xml");
  expect(links(r)[API_DOC_REL]).toBe("/api/dts/docs");
  expect(body).toContain(`<error xmlns="https://w3id.org/dts/api" statusCode="${status}">`);
  expect(XMLValidator.validate(body)).toBe(true);
  for (const w of words) expect(description).toMatch(w instanceof RegExp ? w : new RegExp(w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i"));
  return description;
}

/** The text inside dts:fragment of a response. */
const inner = (body: string): string => /<dts:fragment[^>]*>([\s\S]*)<\/dts:fragment>/.exec(body)?.[1] ?? "";

describe("tokens", () => {
  it("401 without a token, with a Bearer challenge; 403 with a wrong one; never echoes the token", async () => {
    const none = await t.fetch(doc(CATULLUS, "&ref=1"), { method: "DELETE" });
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm="dts"/);
    await expectError(none, 401, "token");
    const wrong = await t.fetch(doc(CATULLUS, "&ref=1&token=nope"), { method: "DELETE" });
    const description = await expectError(wrong, 403, "not valid");
    expect(description).not.toContain("nope");
    const bearer = await t.fetch(doc(CATULLUS, "&ref=1"), { method: "DELETE", headers: { Authorization: "Bearer nope" } });
    await expectError(bearer, 403);
    // A right token in one place and a wrong one in the other is refused too.
    const mixed = await t.fetch(doc(CATULLUS, `&ref=1&token=${TOKEN}`), { method: "DELETE", headers: { Authorization: "Bearer nope" } });
    await expectError(mixed, 403);
    expect(t.file(CATULLUS_FILE)).toBe(readFileSync(join(EMBEDDED, CATULLUS_FILE), "utf8"));
    expect(t.log.join("\n")).not.toContain(TOKEN);
  });

  it("accepts the token as the token query parameter", async () => {
    const body = fragment(`<l n="7">da mi basia mille, deinde centum,</l>`);
    const r = await t.fetch(doc(CATULLUS, `&ref=7&token=${TOKEN}`), { method: "PUT", body });
    expect(r.status).toBe(200);
    expect(r.headers.get("location")).toBe(`/api/dts/document?id=${CATULLUS}&ref=7`);
    expect(r.headers.get("location")).not.toContain("token");
  });

  it("without DTS_TOKEN every write is 403 and says how to enable writes; docs list GET only", async () => {
    const off = await writeTree({ token: undefined });
    try {
      const r = await off.fetch(doc(CATULLUS, "&ref=1&token=x"), { method: "DELETE" });
      await expectError(r, 403, "DTS_TOKEN", "dts serve --corpus");
      const docs = await (await off.fetch("/api/dts/docs")).json();
      expect(docs.supportedOperations.map((o: { method: string }) => o.method)).toEqual(["GET"]);
    } finally {
      await off.close();
    }
  });

  it("a server without --corpus refuses writes the same way", async () => {
    const ro = await serveCorpus(EMBEDDED);
    try {
      for (const method of ["POST", "PUT", "DELETE"]) {
        await expectError(
          await ro.fetch(doc(CATULLUS, "&ref=1"), { method, body: method === "DELETE" ? undefined : "<TEI/>" }),
          403,
          "DTS_TOKEN",
        );
      }
    } finally {
      await ro.close();
    }
  });
});

describe("API documentation", () => {
  it("lists GET, POST, PUT and DELETE when writes are enabled", async () => {
    const r = await t.fetch("/api/dts/docs");
    expect(r.status).toBe(200);
    const docs = await r.json();
    expect(docs.supportedOperations.map((o: { method: string }) => o.method)).toEqual(["GET", "POST", "PUT", "DELETE"]);
    const documentClass = docs.supportedClass.find((c: { "@id": string }) => c["@id"] === `${DTS_NS}Document`);
    expect(documentClass.supportedOperation.map((o: { method: string }) => o.method)).toEqual(["GET", "POST", "PUT", "DELETE"]);
  });

  it("serves the page that documents the write rules", async () => {
    const r = await t.fetch("/api/dts/docs/writes");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await r.text();
    for (const anchor of ["enable", "auth", "body-size", "namespaces", "put-lowest-only", "schema"])
      expect(html).toContain(`id="${anchor}"`);
    expect(html).toContain("4194304");
  });
});

describe("PUT", () => {
  it("replaces one line: 200 with Location and the new content; the file's diff is exactly that line", async () => {
    const before = t.file(CATULLUS_FILE);
    const line = `<l n="2">rumoresque senum SEVERIORUM</l>`;
    const r = await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(line));
    expect(r.status).toBe(200);
    expect(r.headers.get("location")).toBe(`/api/dts/document?id=${CATULLUS}&ref=2`);
    expect(r.headers.get("content-type")).toBe("application/tei+xml");
    expect(links(r)[API_DOC_REL]).toBe("/api/dts/docs");
    expect(links(r).prev).toBe(`/api/dts/document?id=${CATULLUS}&ref=1`);
    const body = await r.text();
    expect(inner(body)).toBe(line);
    // The same as a GET now returns.
    const get = await t.fetch(doc(CATULLUS, "&ref=2"));
    expect(await get.text()).toBe(body);
    const after = t.file(CATULLUS_FILE);
    writeFileSync(join(t.work, "before.xml"), before);
    const diff = spawnSync("git", ["diff", "--no-index", "--numstat", join(t.work, "before.xml"), join(t.corpus, CATULLUS_FILE)], {
      encoding: "utf8",
    });
    expect(diff.stdout.trim().split("\t").slice(0, 2)).toEqual(["1", "1"]);
    expect(changedLines(before, after)).toEqual({ changed: 1, added: 0, removed: 0 });
    expect(after).toContain(`          ${line}\n`);
  });

  it("readers revalidate: no-cache, and the ETag a client holds no longer matches after a write", async () => {
    const first = await t.fetch(doc(CATULLUS, "&ref=10"));
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect((await t.fetch(doc(CATULLUS, "&ref=10"), { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await t.write("PUT", doc(CATULLUS, "&ref=10"), fragment(`<l n="10">dein, cum milia multa fecerimus!</l>`))).status).toBe(200);
    const again = await t.fetch(doc(CATULLUS, "&ref=10"), { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("fecerimus!");
  });

  it("lets the element's attributes change, and answers the whole document with the new text", async () => {
    const line = `<l n="3" rend="indent">omnes unius aestimemus assis!</l>`;
    expect((await t.write("PUT", doc(CATULLUS, "&ref=3"), fragment(line))).status).toBe(200);
    expect(await (await t.fetch(doc(CATULLUS))).text()).toContain(line);
    expect(t.file(CATULLUS_FILE)).toContain(line);
  });

  it("empties a passage with an empty element", async () => {
    expect((await t.write("PUT", doc(CATULLUS, "&ref=4"), fragment(`<l n="4"/>`))).status).toBe(200);
    expect(inner(await (await t.fetch(doc(CATULLUS, "&ref=4"))).text())).toBe(`<l n="4"/>`);
    expect((await t.write("PUT", doc(CATULLUS, "&ref=4"), fragment(`<l n="4">soles occidere et redire possunt:</l>`))).status).toBe(200);
  });

  it("replaces an upper-level passage that keeps the same nested passages", async () => {
    const get = await t.fetch(doc(CAESAR, "&ref=1.2"));
    const chapter = inner(await get.text());
    const edited = chapter.replace("Orgetorix", "ORGETORIX");
    const r = await t.write("PUT", doc(CAESAR, "&ref=1.2"), fragment(edited));
    expect(r.status).toBe(200);
    expect(inner(await (await t.fetch(doc(CAESAR, "&ref=1.2.1"))).text())).toContain("ORGETORIX");
  });

  it("refuses an upper-level PUT whose nested passages differ, saying which (400)", async () => {
    const chapter = inner(await (await t.fetch(doc(CAESAR, "&ref=1.2"))).text());
    const without3 = chapter.replace(/\s*<div type="textpart" subtype="section" n="3">[\s\S]*?<\/div>/, "");
    await expectError(await t.write("PUT", doc(CAESAR, "&ref=1.2"), fragment(without3)), 400, "same nested passages", `"1.2.3"`);
    const renumbered = chapter.replace(`subtype="section" n="2"`, `subtype="section" n="9"`);
    await expectError(await t.write("PUT", doc(CAESAR, "&ref=1.2"), fragment(renumbered)), 400, "1.2");
    const swapped = chapter
      .replace(`subtype="section" n="1"`, `subtype="section" n="X"`)
      .replace(`subtype="section" n="2"`, `subtype="section" n="1"`)
      .replace(`subtype="section" n="X"`, `subtype="section" n="2"`);
    await expectError(await t.write("PUT", doc(CAESAR, "&ref=1.2"), fragment(swapped)), 400, "same order");
    expect(t.file(CAESAR_FILE)).toContain("ORGETORIX");
  });

  it("refuses a replacement cited under another reference (400)", async () => {
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=5"), fragment(`<l n="55">x</l>`)), 400, `"55"`, "DELETE");
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=5"), fragment(`<l>no number</l>`)), 400, "citable");
  });

  it("404 for a passage that does not exist, saying it must be created first", async () => {
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=99"), fragment(`<l n="99">x</l>`)), 404, `ref="99"`, "create it first");
    await expectError(await t.write("PUT", doc("urn:nope", "&ref=1"), fragment(`<l n="1">x</l>`)), 404, "no document", "id");
  });

  it("400 for zero or several elements, for ranges, for a missing ref", async () => {
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=6"), fragment("")), 400, "no element");
    await expectError(
      await t.write("PUT", doc(CATULLUS, "&ref=6"), fragment(`<l n="6">a</l><l n="7">b</l>`)),
      400,
      "2 elements",
      "exactly one",
    );
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=6"), fragment(`text <l n="6">a</l>`)), 400, "text directly inside");
    await expectError(await t.write("PUT", doc(CATULLUS, "&start=1&end=2"), fragment(`<l n="1">a</l>`)), 400, "start, end");
    await expectError(await t.write("PUT", doc(CATULLUS), fragment(`<l n="1">a</l>`)), 400, "ref");
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=6&after=5"), fragment(`<l n="6">a</l>`)), 400, "after");
  });

  it("keeps comments beside the element out of the document and the element's bytes as written", async () => {
    const line = `<l n="8"  xml:id="c8">dein mille altera, dein <!-- sic --> secunda centum,</l>`;
    expect((await t.write("PUT", doc(CATULLUS, "&ref=8"), fragment(`\n  <!-- a note -->\n  ${line}\n`))).status).toBe(200);
    const text = t.file(CATULLUS_FILE);
    expect(text).toContain(`          ${line}\n`);
    expect(text).not.toContain("a note");
  });
});

describe("POST after and before", () => {
  it("inserts a line after another, indented like its siblings; 201 with Location (id and ref)", async () => {
    const before = t.file(CATULLUS_FILE);
    const line = `<l n="13a">hic versus novus est.</l>`;
    const r = await t.write("POST", doc(CATULLUS, "&after=13"), fragment(line));
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/dts/document?id=${CATULLUS}&ref=13a`);
    expect(inner(await r.text())).toBe(line);
    const after = t.file(CATULLUS_FILE);
    expect(after).toContain(`          <l n="13">cum tantum sciat esse basiorum.</l>\n          ${line}\n        </lg>`);
    expect(changedLines(before, after)).toEqual({ changed: 0, added: 1, removed: 0 });
    const get = await t.fetch(doc(CATULLUS, "&ref=13a"));
    expect(get.status).toBe(200);
    expect(links(get).prev).toBe(`/api/dts/document?id=${CATULLUS}&ref=13`);
    // The neighbour's links were rebuilt too.
    expect(links(await t.fetch(doc(CATULLUS, "&ref=13"))).next).toBe(`/api/dts/document?id=${CATULLUS}&ref=13a`);
    const navigation = await (await t.fetch(nav(CATULLUS))).json();
    expect(navigation.member.map((m: { ref: string }) => m.ref).slice(-2)).toEqual(["13", "13a"]);
  });

  it("inserts several siblings before a passage; Location names them as a range", async () => {
    const r = await t.write("POST", doc(CATULLUS, "&before=1"), fragment(`<l n="0a">prior</l>\n<l n="0b">alter</l>`));
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/dts/document?id=${CATULLUS}&start=0a&end=0b`);
    const text = t.file(CATULLUS_FILE);
    expect(text).toContain(`<lg type="poem">\n          <l n="0a">prior</l>\n          <l n="0b">alter</l>\n          <l n="1">`);
    const body = await r.text();
    expect(body).toBe(await (await t.fetch(doc(CATULLUS, "&start=0a&end=0b"))).text());
  });

  it("inserts at an upper level: a new chapter with its sections", async () => {
    const chapter = `<div type="textpart" subtype="chapter" n="3">\n            <div type="textpart" subtype="section" n="1">\n              <p>Nova sectio.</p>\n            </div>\n          </div>`;
    const r = await t.write("POST", doc(CAESAR, "&after=1.2"), fragment(chapter));
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/dts/document?id=${CAESAR}&ref=1.3`);
    expect(inner(await (await t.fetch(doc(CAESAR, "&ref=1.3.1"))).text())).toContain("Nova sectio.");
  });

  it("409 for a reference that exists already, saying a duplicate would result", async () => {
    await expectError(await t.write("POST", doc(CATULLUS, "&after=5"), fragment(`<l n="6">dup</l>`)), 409, "duplicate", `"6"`);
    await expectError(await t.write("POST", doc(CATULLUS, "&before=5"), fragment(`<l n="6">dup</l>`)), 409, "duplicate");
    await expectError(await t.write("POST", doc(CATULLUS, "&after=5"), fragment(`<l n="5x">a</l><l n="5x">b</l>`)), 409, "duplicate");
  });

  it("refuses both after and before, ref/start/end, unknown targets, elements at another level", async () => {
    await expectError(await t.write("POST", doc(CATULLUS, "&after=1&before=2"), fragment(`<l n="1b">x</l>`)), 400, "not both");
    for (const p of ["&ref=1", "&start=1", "&end=2"]) {
      await expectError(await t.write("POST", doc(CATULLUS, `&after=1${p}`), fragment(`<l n="1b">x</l>`)), 400, "POST takes no");
    }
    await expectError(await t.write("POST", doc(CATULLUS, "&after=77"), fragment(`<l n="78">x</l>`)), 404, `after="77"`);
    await expectError(await t.write("POST", doc(CATULLUS, "&after=1"), fragment(`<l>no n</l>`)), 400, "@n");
    await expectError(await t.write("POST", doc(CAESAR, "&after=1.1.1"), fragment(`<p n="9">a paragraph</p>`)), 400, "citable");
    await expectError(await t.write("POST", doc(LIVY, "&after=1"), fragment(`<p n="9">x</p>`)), 404, "no text yet");
  });
});

describe("DELETE", () => {
  it("removes a passage: 200 with the old content, no Location, no blank line left", async () => {
    const before = t.file(CATULLUS_FILE);
    const old = await (await t.fetch(doc(CATULLUS, "&ref=13a"))).text();
    const r = await t.write("DELETE", doc(CATULLUS, "&ref=13a"));
    expect(r.status).toBe(200);
    expect(r.headers.get("location")).toBeNull();
    expect(links(r)[API_DOC_REL]).toBe("/api/dts/docs");
    expect(await r.text()).toBe(old);
    expect(changedLines(before, t.file(CATULLUS_FILE))).toEqual({ changed: 0, added: 0, removed: 1 });
    await expectError(await t.fetch(doc(CATULLUS, "&ref=13a")), 404);
  });

  it("removes a range given by start and end", async () => {
    const old = await (await t.fetch(doc(CATULLUS, "&start=0a&end=0b"))).text();
    const r = await t.write("DELETE", doc(CATULLUS, "&start=0a&end=0b"));
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(old);
    expect(t.file(CATULLUS_FILE)).toContain(`<lg type="poem">\n          <l n="1">`);
  });

  it("removes an upper-level passage with its descendants", async () => {
    const r = await t.write("DELETE", doc(CAESAR, "&ref=1.3"));
    expect(r.status).toBe(200);
    await expectError(await t.fetch(doc(CAESAR, "&ref=1.3.1")), 404);
    expect(t.file(CAESAR_FILE)).not.toContain("Nova sectio");
  });

  it("400 for start or end alone, or combined with ref; 404 naming the id or the reference", async () => {
    await expectError(await t.write("DELETE", doc(CATULLUS, "&start=1")), 400, "both start and end");
    await expectError(await t.write("DELETE", doc(CATULLUS, "&end=1")), 400, "both start and end");
    await expectError(await t.write("DELETE", doc(CATULLUS, "&ref=1&start=1&end=2")), 400, "ref cannot be combined");
    await expectError(await t.write("DELETE", doc(CATULLUS)), 400, "ref, or start and end");
    await expectError(await t.write("DELETE", doc("urn:none", "&ref=1")), 404, `"urn:none"`, "id");
    await expectError(await t.write("DELETE", doc(CATULLUS, "&ref=404")), 404, `ref="404"`);
    await expectError(await t.write("DELETE", doc(CATULLUS, "&start=1&end=404")), 404, `end="404"`);
  });
});

describe("POST, initial form", () => {
  const header = `<teiHeader><fileDesc><titleStmt><title>Ab urbe condita I</title><author>Titus Livius</author><editor>Wilhelm Weissenborn</editor></titleStmt><publicationStmt><publisher>Teubner</publisher><date>1860</date></publicationStmt><sourceDesc><p>Weissenborn 1860</p></sourceDesc></fileDesc><profileDesc><langUsage><language ident="lat">Latin</language></langUsage></profileDesc></teiHeader>`;
  const whole = `<?xml version="1.0" encoding="UTF-8"?>\n<TEI xmlns="${TEI_NS}">\n  ${header}\n  <text>\n    <body>\n      <div type="edition">\n        <div type="textpart" n="1">\n          <p n="1">Iam primum omnium satis constat Troia capta in ceteros saevitum esse Troianos.</p>\n        </div>\n      </div>\n    </body>\n  </text>\n</TEI>\n`;

  it("refuses a body with dts:fragment (400)", async () => {
    await expectError(await t.write("POST", doc(LIVY), fragment(`<p n="1">x</p>`)), 400, "without dts:fragment");
  });

  it("creates the first text: 201, Location with id only, the body a GET returns; header metadata merged", async () => {
    const r = await t.write("POST", doc(LIVY), whole);
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/dts/document?id=${LIVY}`);
    const body = await r.text();
    expect(body).toBe(whole);
    expect(await (await t.fetch(doc(LIVY))).text()).toBe(whole);
    expect(t.file(LIVY_FILE)).toBe(whole);
    expect(inner(await (await t.fetch(doc(LIVY, "&ref=1.1"))).text())).toContain("Troia capta");
    const record = await (await t.fetch(coll(`?id=${q(LIVY)}`))).json();
    expect(record.maxCiteDepth).toBe(2);
    // The record's own terms stay; the header fills what it lacks.
    expect(record.dublinCore.creator).toEqual(["Titus Livius"]);
    expect(record.dublinCore.publisher).toEqual(["Teubner"]);
    expect(record.dublinCore.contributor).toEqual(["Wilhelm Weissenborn"]);
    const latin = await (await t.fetch(coll(`?id=${q("urn:dts:sample:latin")}`))).json();
    expect(latin.member.find((m: { "@id": string }) => m["@id"] === LIVY).maxCiteDepth).toBe(2);
  });

  it("409 once the document has text", async () => {
    await expectError(await t.write("POST", doc(LIVY), whole), 409, "already has text");
    await expectError(await t.write("POST", doc(CATULLUS), whole), 409, "already has text");
  });

  it("refuses a collection id and an unknown id (404)", async () => {
    await expectError(await t.write("POST", doc("urn:dts:sample:latin"), whole), 404, "collection");
    await expectError(await t.write("POST", doc("urn:none"), whole), 404, "no document");
  });
});

describe("bodies", () => {
  it("400 with line and column for XML that is not well formed", async () => {
    const d = await expectError(
      await t.write(
        "PUT",
        doc(CATULLUS, "&ref=9"),
        `<TEI xmlns="${TEI_NS}">\n<dts:fragment xmlns:dts="${DTS_NS}">\n<l n="9">a <hi>b</l>\n</dts:fragment></TEI>`,
      ),
      400,
      "not well-formed",
    );
    expect(d).toMatch(/line 3, column \d+/);
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=9"), fragment(`<l n="9">a & b</l>`)), 400, "&amp;", "line 2");
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=9"), fragment(`<l n="9">a &nbsp; b</l>`)), 400, "&nbsp;", "predefined");
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=9"), ""), 400, "no body");
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=9"), new Uint8Array([0x3c, 0xff, 0xfe, 0x3e])), 400, "UTF-8");
  });

  it("400 for a DOCTYPE or an entity declaration: nothing is expanded", async () => {
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>\n<TEI xmlns="${TEI_NS}"><dts:fragment xmlns:dts="${DTS_NS}"><l n="9">&b;</l></dts:fragment></TEI>`;
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=9"), bomb), 400, "DOCTYPE", "line 2", "/api/dts/docs/writes#bodies");
    await expectError(await t.write("PUT", doc(CATULLUS, "&ref=9"), fragment(`<l n="9"><!ENTITY x "y"></l>`)), 400);
    expect(t.file(CATULLUS_FILE)).not.toContain("aaaa");
  });

  it("400 for a wrong root or namespace", async () => {
    await expectError(
      await t.write(
        "PUT",
        doc(CATULLUS, "&ref=9"),
        `<text xmlns="${TEI_NS}"><dts:fragment xmlns:dts="${DTS_NS}"><l n="9">x</l></dts:fragment></text>`,
      ),
      400,
      "root element is <text>",
    );
    await expectError(
      await t.write("PUT", doc(CATULLUS, "&ref=9"), `<TEI><dts:fragment xmlns:dts="${DTS_NS}"><l n="9">x</l></dts:fragment></TEI>`),
      400,
      "in no namespace",
    );
    await expectError(
      await t.write("PUT", doc(CATULLUS, "&ref=9"), `<TEI xmlns="${TEI_NS}"><fragment><l n="9">x</l></fragment></TEI>`),
      400,
      "no <dts:fragment",
    );
    await expectError(
      await t.write(
        "PUT",
        doc(CATULLUS, "&ref=9"),
        `<TEI xmlns="${TEI_NS}"><dts:fragment xmlns:dts="https://example.org/other#"><l n="9">x</l></dts:fragment></TEI>`,
      ),
      400,
      "dts:fragment",
    );
  });

  it("422 for elements whose namespace would change once in the document", async () => {
    const body = `<TEI xmlns="${TEI_NS}"><dts:fragment xmlns:dts="${DTS_NS}"><l xmlns="http://example.org/x" n="9">x</l></dts:fragment></TEI>`;
    // The element declares its own default namespace: it is then cited as nothing.
    const r = await t.write("PUT", doc(CATULLUS, "&ref=9"), body);
    expect([400, 422]).toContain(r.status);
    const prefixed = `<TEI xmlns="${TEI_NS}" xmlns:x="http://example.org/x"><dts:fragment xmlns:dts="${DTS_NS}"><l n="9"><x:seg>a</x:seg></l></dts:fragment></TEI>`;
    await expectError(
      await t.write("PUT", doc(CATULLUS, "&ref=9"), prefixed),
      422,
      `"x:"`,
      "Declare it on the submitted element",
      "/api/dts/docs/writes#namespaces",
    );
    const declared = `<TEI xmlns="${TEI_NS}"><dts:fragment xmlns:dts="${DTS_NS}"><l n="9"><x:seg xmlns:x="http://example.org/x">a</x:seg> deinde usque altera mille, deinde centum.</l></dts:fragment></TEI>`;
    expect((await t.write("PUT", doc(CATULLUS, "&ref=9"), declared)).status).toBe(200);
  });

  it("415 for a body that says it is JSON", async () => {
    const r = await t.fetch(doc(CATULLUS, "&ref=9"), {
      method: "PUT",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: "{}",
    });
    await expectError(r, 415, "TEI XML");
  });
});

describe("limits and restrictions", () => {
  let small: WriteTree;
  beforeAll(async () => {
    small = await writeTree({ maxBody: 2000, putLowestOnly: true });
  });
  afterAll(async () => small?.close());

  it("413 for a body over the limit, whether its length is declared or streamed", async () => {
    const big = fragment(`<l n="2">${"x".repeat(5000)}</l>`);
    await expectError(await small.write("PUT", doc(CATULLUS, "&ref=2"), big), 413, "2000 bytes", "/api/dts/docs/writes#body-size");
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // An endless body: the server must stop reading it.
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x78));
        if (sent >= 256 * 1024 * 1024) controller.close();
      },
    });
    const r = await fetch(small.server.url + doc(CATULLUS, "&ref=2"), {
      method: "PUT",
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectError(r, 413);
    // Answered long before the client could send it all.
    expect(sent).toBeLessThan(256 * 1024 * 1024);
    expect(small.file(CATULLUS_FILE)).toBe(readFileSync(join(EMBEDDED, CATULLUS_FILE), "utf8"));
  });

  it("a configured restriction explains itself and gives the URL of its documentation, which resolves", async () => {
    const chapter = inner(await (await small.fetch(doc(CAESAR, "&ref=1.1"))).text());
    const d = await expectError(await small.write("PUT", doc(CAESAR, "&ref=1.1"), fragment(chapter)), 422, "lowest citation level");
    const url = /(\/api\/dts\/docs\/writes#[\w-]+)/.exec(d)![1];
    expect(url).toBe("/api/dts/docs/writes#put-lowest-only");
    const page = await small.fetch(url.split("#")[0]);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/id="put-lowest-only"[\s\S]*In force/);
    // The lowest level is still writable.
    const section = inner(await (await small.fetch(doc(CAESAR, "&ref=1.1.1"))).text());
    expect((await small.write("PUT", doc(CAESAR, "&ref=1.1.1"), fragment(section.replace("Gallia", "GALLIA")))).status).toBe(200);
  });
});

describe("a document that writes TEI with a prefix", () => {
  let p: WriteTree;
  const file = "latin/prefixed.xml";
  beforeAll(async () => {
    p = await writeTree({
      prepare: (corpus) =>
        writeFileSync(
          join(corpus, file),
          `<?xml version="1.0" encoding="UTF-8"?>\n<tei:TEI xmlns:tei="${TEI_NS}">\n  <tei:teiHeader><tei:fileDesc><tei:titleStmt><tei:title>Prefixed</tei:title></tei:titleStmt><tei:publicationStmt><tei:p>x</tei:p></tei:publicationStmt><tei:sourceDesc><tei:p>x</tei:p></tei:sourceDesc></tei:fileDesc></tei:teiHeader>\n  <tei:text>\n    <tei:body>\n      <tei:l n="1">one</tei:l>\n      <tei:l n="2">two</tei:l>\n    </tei:body>\n  </tei:text>\n</tei:TEI>\n`,
        ),
    });
  });
  afterAll(async () => p?.close());

  it("422 for elements in the default namespace, explaining the prefix; accepted when written with it", async () => {
    const id = "latin/prefixed";
    await expectError(await p.write("PUT", doc(id, "&ref=2"), fragment(`<l n="2">TWO</l>`)), 422, `prefix "tei:"`);
    const body = `<TEI xmlns="${TEI_NS}" xmlns:tei="${TEI_NS}"><dts:fragment xmlns:dts="${DTS_NS}"><tei:l n="2">TWO</tei:l></dts:fragment></TEI>`;
    expect((await p.write("PUT", doc(id, "&ref=2"), body)).status).toBe(200);
    expect(p.file(file)).toContain(`      <tei:l n="2">TWO</tei:l>\n`);
  });
});

describe("what a write rebuilds", () => {
  it("a one-line PUT rewrites only that document's changed responses; other documents' files keep their mtimes", async () => {
    const w = await writeTree();
    try {
      const before = snapshotTree(w.dist);
      await new Promise((r) => setTimeout(r, 20));
      const r = await w.write(
        "PUT",
        doc(GEORGICS, "&ref=1.2"),
        fragment(inner(await (await w.fetch(doc(GEORGICS, "&ref=1.2"))).text()).replace(/>([^<]+)</, ">EDITED $1<")),
      );
      expect(r.status).toBe(200);
      const after = snapshotTree(w.dist);
      const differs = (k: string): boolean => after.get(k)!.hash !== before.get(k)?.hash || after.get(k)!.mtime !== before.get(k)?.mtime;
      const changed = [...after.keys()].filter((k) => before.has(k) && differs(k)).sort();
      const added = [...after.keys()].filter((k) => !before.has(k));
      const folder = documentFolder(GEORGICS);
      // And the tree's generation, which tells other servers reading the tree that it changed.
      expect(changed).toEqual(["_generation", `${folder}/${MANIFEST}`, `${folder}/_build.json`, `${folder}/_index.json`].sort());
      // One new pack, holding the three responses that changed (the document, book 1, line 1.2); the rest stay where they were.
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(new RegExp(`^${folder}/_p\\.`));
      const entries = readFolder(w.dist, folder)!.entries;
      const inNewPack = Object.keys(entries).filter((name) => `${folder}/${entries[name].file}` === added[0]);
      expect(inNewPack.sort()).toEqual(["_.xml", "r.1.2.xml", "r.1.xml"]);
      expect([...before.keys()].filter((k) => !after.has(k))).toEqual([]);
      // Navigation of the document is untouched too.
      expect(changed.some((k) => k.startsWith(navigationFolder(GEORGICS)))).toBe(false);
    } finally {
      await w.close();
    }
  });
});

describe("POST, initial form, in a CapiTainS corpus", () => {
  const ID = "urn:cts:latinLit:tst0001.tst001.test-lat1";
  let c: WriteTree;
  let source: string;
  beforeAll(async () => {
    // A corpus of our own: one textgroup, one work, one edition with a record and no file.
    source = mkdtempSync(join(tmpdir(), "dts-cts-"));
    mkdirSync(join(source, "data/tst0001/tst001"), { recursive: true });
    writeFileSync(
      join(source, "data/tst0001/__cts__.xml"),
      `<textgroup xmlns="http://chs.harvard.edu/xmlns/cts" urn="urn:cts:latinLit:tst0001"><groupname xml:lang="eng">Test author</groupname></textgroup>\n`,
    );
    writeFileSync(
      join(source, "data/tst0001/tst001/__cts__.xml"),
      `<work xmlns="http://chs.harvard.edu/xmlns/cts" groupUrn="urn:cts:latinLit:tst0001" urn="urn:cts:latinLit:tst0001.tst001" xml:lang="lat">\n  <title xml:lang="lat">Opus</title>\n  <edition urn="${ID}" workUrn="urn:cts:latinLit:tst0001.tst001">\n    <label xml:lang="lat">Opus, editio prima</label>\n  </edition>\n</work>\n`,
    );
    c = await writeTree({ source });
  });
  afterAll(async () => {
    await c?.close();
    rmSync(source, { recursive: true, force: true });
  });

  it("writes the file the record names and fills the record from the teiHeader", async () => {
    const before = await (await c.fetch(coll(`?id=${q(ID)}`))).json();
    expect(before.maxCiteDepth).toBe(0);
    await expectError(await c.fetch(doc(ID)), 404, "no text yet");
    const whole = `<?xml version="1.0" encoding="UTF-8"?>\n<TEI xmlns="${TEI_NS}"><teiHeader><fileDesc><titleStmt><title>Opus</title><author>Auctor Ignotus</author></titleStmt><publicationStmt><publisher>Officina</publisher><date>2025</date></publicationStmt><sourceDesc><p>x</p></sourceDesc></fileDesc><profileDesc><langUsage><language ident="lat">Latin</language></langUsage></profileDesc></teiHeader>\n<text><body><div type="edition"><div type="textpart" n="1"><p>Primum.</p></div><div type="textpart" n="2"><p>Secundum.</p></div></div></body></text></TEI>\n`;
    const r = await c.write("POST", doc(ID), whole);
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/dts/document?id=${ID}`);
    const file = c.server.workspace!.resource(ID)!.file;
    expect(file.endsWith("data/tst0001/tst001/tst0001.tst001.test-lat1.xml")).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(whole);
    const record = await (await c.fetch(coll(`?id=${q(ID)}`))).json();
    expect(record.title).toBe(before.title);
    expect(record.maxCiteDepth).toBe(1);
    // The record's own terms stay (the textgroup gives the creator); the header fills the others.
    expect(record.dublinCore.creator).toEqual(before.dublinCore.creator);
    expect(record.dublinCore.publisher).toEqual(["Officina"]);
    expect(record.dublinCore.language).toEqual(before.dublinCore?.language ?? ["lat"]);
    const work = await (await c.fetch(coll(`?id=${q("urn:cts:latinLit:tst0001.tst001")}`))).json();
    expect(work.member[0].maxCiteDepth).toBe(1);
    expect(inner(await (await c.fetch(doc(ID, "&ref=2"))).text())).toContain("Secundum.");
  });
});
