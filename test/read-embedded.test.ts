// The read side over real HTTP on the embedded corpus: every Document, Collection and
// Navigation behaviour of the 1-draft2 API, as a client sees it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeEntities } from "../builder/xml/scan.js";
import {
  CAESAR,
  CAESAR_FILE,
  CATULLUS,
  CATULLUS_FILE,
  coll,
  doc,
  EDGE,
  GEORGICS,
  GEORGICS_FILE,
  LIVY,
  nav,
  ODYSSEY,
  ODYSSEY_FILE,
  q,
} from "./helpers/embedded.js";
import { API_DOC_REL, EMBEDDED, links, type ServedTree, serveCorpus, treeFiles } from "./helpers/tree.js";

const source = (file: string): string => readFileSync(join(EMBEDDED, file), "utf8");
/** The exact source text of the first element that starts with `startTag`. */
function slice(text: string, startTag: string, endTag: string): string {
  const a = text.indexOf(startTag);
  const b = text.indexOf(endTag, a) + endTag.length;
  expect(a).toBeGreaterThanOrEqual(0);
  return text.slice(a, b);
}

let tree: ServedTree;
beforeAll(async () => {
  tree = await serveCorpus(EMBEDDED);
});
afterAll(async () => {
  await tree?.close();
});

async function xmlError(path: string, status: number): Promise<{ description: string; body: string }> {
  const r = await tree.fetch(path);
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/tei+xml");
  expect(links(r)[API_DOC_REL]).toBe("/api/dts/docs");
  expect(r.headers.get("access-control-allow-origin")).toBe("*");
  const body = await r.text();
  expect(body).toContain(`<error xmlns="https://w3id.org/dts/api" statusCode="${status}">`);
  expect(XMLValidator.validate(body)).toBe(true);
  expect(body).toMatch(/<title>[^<]+<\/title>/);
  const description = decodeEntities(/<description>([^<]*)<\/description>/.exec(body)?.[1] ?? "");
  expect(description.length).toBeGreaterThan(10);
  return { description, body };
}

async function jsonError(path: string, status: number): Promise<string> {
  const r = await tree.fetch(path);
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/ld+json");
  expect(links(r)[API_DOC_REL]).toBe("/api/dts/docs");
  const body = await r.json();
  expect(body["@type"]).toBe("Status");
  expect(body.statusCode).toBe(status);
  expect(body.title).toBeTruthy();
  return body.description as string;
}

describe("build report", () => {
  it("counts documents, passages and files, with no warnings on the embedded corpus", () => {
    expect(tree.report.documents).toBe(6);
    expect(tree.report.withoutText).toBe(1);
    // 13 + 22 + 14 + 17 + 9 units in the five texts.
    expect(tree.report.passages).toBe(75);
    // Every file of the tree was written by the build, and counted (all but the tree's record, written before counting starts).
    expect(tree.report.files).toBe(treeFiles(tree.dist).size - 1);
    expect(tree.report.warnings).toEqual([]);
  });
});

describe("Document endpoint", () => {
  it("returns the whole document as the source bytes, with only apiDocumentation, contents and collection", async () => {
    const r = await tree.fetch(doc(GEORGICS));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/tei+xml");
    expect(await r.text()).toBe(source(GEORGICS_FILE));
    expect(Object.keys(links(r)).sort()).toEqual([API_DOC_REL, "collection", "contents"].sort());
    expect(links(r).contents).toBe(`/api/dts/navigation?id=${GEORGICS}`);
    expect(links(r).collection).toBe(`/api/dts/collection?id=${GEORGICS}`);
  });

  it("returns a passage at every level as the exact source inside TEI > dts:fragment", async () => {
    const cases: [string, string, string][] = [
      [CATULLUS, "5", slice(source(CATULLUS_FILE), '<l n="5">', "</l>")],
      [GEORGICS, "1.4", slice(source(GEORGICS_FILE), '<l n="4">', "</l>")],
      [CAESAR, "1.1.2", slice(source(CAESAR_FILE), '<div type="textpart" subtype="section" n="2">', "</div>")],
    ];
    for (const [id, ref, expected] of cases) {
      const r = await tree.fetch(doc(id, `&ref=${ref}`));
      expect(r.status).toBe(200);
      const body = await r.text();
      expect(XMLValidator.validate(body)).toBe(true);
      expect(body).toMatch(
        /^<\?xml[^>]*\?>\n<TEI xmlns="http:\/\/www.tei-c.org\/ns\/1.0"><dts:fragment xmlns:dts="https:\/\/w3id.org\/dts\/api#">/,
      );
      expect(body).toContain(`<dts:fragment xmlns:dts="https://w3id.org/dts/api#">${expected}</dts:fragment></TEI>`);
    }
  });

  it("returns an upper level with all its descendants", async () => {
    const body = await (await tree.fetch(doc(CAESAR, "&ref=1.2"))).text();
    for (const n of ["1", "2", "3"]) expect(body).toContain(`subtype="section" n="${n}"`);
    expect(body).not.toContain('subtype="chapter" n="1"');
  });

  it("keeps the material between units in a range across parents and reopens the ancestors", async () => {
    const r = await tree.fetch(doc(GEORGICS, "&start=1.11&end=2.2"));
    expect(r.status).toBe(200);
    const body = await r.text();
    expect(XMLValidator.validate(body)).toBe(true);
    const text = source(GEORGICS_FILE);
    const from = text.indexOf('<l n="11">');
    const to = text.indexOf("</l>", text.indexOf('<l n="2">', text.indexOf('subtype="book" n="2"'))) + 4;
    // The book 1 start tag is reopened, the source runs unchanged (closing book 1, the head
    // and milestone of book 2), and book 2 is closed.
    const book1 = slice(text, '<div type="textpart" subtype="book" n="1"', ">");
    expect(body).toContain(`${book1}${text.slice(from, to)}</div></dts:fragment>`);
    expect(body).toContain("<head>");
  });

  it("returns a range within one parent, both ends inclusive", async () => {
    const body = await (await tree.fetch(doc(ODYSSEY, "&start=1.3&end=1.5"))).text();
    const text = source(ODYSSEY_FILE);
    expect(body).toContain(text.slice(text.indexOf('<l n="3">'), text.indexOf("</l>", text.indexOf('<l n="5">')) + 4));
    expect(body).not.toContain('<l n="6">');
    expect(body).not.toContain('<l n="2">');
  });

  it("runs start alone to the last unit, and end alone from the first", async () => {
    const tail = await (await tree.fetch(doc(CATULLUS, "&start=11"))).text();
    expect(tail).toContain('<l n="11">');
    expect(tail).toContain('<l n="13">');
    expect(tail).not.toContain('<l n="10">');
    const head = await (await tree.fetch(doc(CATULLUS, "&end=2"))).text();
    expect(head).toContain('<l n="1">');
    expect(head).toContain('<l n="2">');
    expect(head).not.toContain('<l n="3">');
  });

  it("links a passage to prev, next, up, first and last at its level, across parents", async () => {
    const r = await tree.fetch(doc(GEORGICS, "&ref=1.12"));
    const l = links(r);
    expect(l.prev).toBe(`/api/dts/document?id=${GEORGICS}&ref=1.11`);
    expect(l.next).toBe(`/api/dts/document?id=${GEORGICS}&ref=2.1`);
    expect(l.up).toBe(`/api/dts/document?id=${GEORGICS}&ref=1`);
    expect(l.first).toBe(`/api/dts/document?id=${GEORGICS}&ref=1.1`);
    expect(l.last).toBe(`/api/dts/document?id=${GEORGICS}&ref=2.8`);
    expect(l.contents).toBeDefined();
    expect(l.collection).toBeDefined();
    const top = links(await tree.fetch(doc(GEORGICS, "&ref=1")));
    expect(top.up).toBe(`/api/dts/document?id=${GEORGICS}`);
    expect(top.prev).toBeUndefined();
    expect(top.next).toBe(`/api/dts/document?id=${GEORGICS}&ref=2`);
  });

  it("links a range to the neighbouring windows of the same size", async () => {
    const l = links(await tree.fetch(doc(CATULLUS, "&start=4&end=6")));
    expect(l.prev).toBe(`/api/dts/document?id=${CATULLUS}&start=1&end=3`);
    expect(l.next).toBe(`/api/dts/document?id=${CATULLUS}&start=7&end=9`);
    expect(l.up).toBe(`/api/dts/document?id=${CATULLUS}`);
  });

  it("rejects ref with start or end (400), and a missing id (400)", async () => {
    expect((await xmlError(doc(GEORGICS, "&ref=1.1&start=1.2"), 400)).description).toMatch(/ref cannot be combined/);
    expect((await xmlError(doc(GEORGICS, "&ref=1.1&end=1.2"), 400)).description).toMatch(/ref cannot be combined/);
    expect((await xmlError("/api/dts/document", 400)).description).toMatch(/id is missing/);
  });

  it("says whether the id or the reference was wrong (404)", async () => {
    expect((await xmlError(doc("urn:nothing"), 404)).description).toMatch(/no document with the id "urn:nothing".*id is wrong/);
    const wrongRef = await xmlError(doc(GEORGICS, "&ref=9.9"), 404);
    expect(wrongRef.description).toMatch(/exists, but it has no passage with the reference ref="9.9"/);
    const deeper = await xmlError(doc(GEORGICS, "&ref=1.1.1"), 404);
    expect(deeper.description).toMatch(/3 parts, and the document is cited to 2 levels/);
    expect((await xmlError(doc(GEORGICS, "&start=1.1&end=7.7"), 404)).description).toMatch(/end="7.7"/);
  });

  it("rejects start after end, and start and end at different levels (400)", async () => {
    expect((await xmlError(doc(GEORGICS, "&start=1.5&end=1.2"), 400)).description).toMatch(/comes after/);
    expect((await xmlError(doc(GEORGICS, "&start=1&end=1.2"), 400)).description).toMatch(/same citation level/);
  });

  it("rejects an unsupported format (400) and accepts format=tei", async () => {
    expect((await xmlError(doc(GEORGICS, "&ref=1.1&format=html"), 400)).description).toMatch(/format "html"/);
    const r = await tree.fetch(doc(GEORGICS, "&ref=1.1&format=tei"));
    expect(r.status).toBe(200);
  });

  it("answers 404 for a record with no text yet, saying so", async () => {
    expect((await xmlError(doc(LIVY), 404)).description).toMatch(/no text yet/);
    expect(await jsonError(nav(LIVY), 404)).toMatch(/no text yet/);
  });
});

describe("Collection endpoint", () => {
  it("returns the root without an id, with exact counts and members", async () => {
    const r = await tree.fetch(coll());
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/ld+json");
    const body = await r.json();
    // The tree's own context, at the origin the request came to (no --site-url).
    expect(body["@context"]).toBe(`${tree.server.url}/api/dts/context.json`);
    expect(body["@id"]).toBe("default");
    expect(body["@type"]).toBe("Collection");
    expect(body.totalParents).toBe(0);
    expect(body.totalItems).toBe(3);
    expect(body.totalChildren).toBe(3);
    expect(body.member.map((m: { "@id": string }) => m["@id"]).sort()).toEqual([
      "urn:dts:sample:edge",
      "urn:dts:sample:greek",
      "urn:dts:sample:latin",
    ]);
    for (const m of body.member) {
      for (const key of ["@id", "title", "@type", "totalItems", "totalParents", "totalChildren"]) expect(m).toHaveProperty(key);
    }
  });

  it("returns a collection with its resources expanded with full metadata", async () => {
    const body = await (await tree.fetch(coll("?id=urn:dts:sample:latin"))).json();
    expect(body.totalItems).toBe(4);
    expect(body.member).toHaveLength(4);
    const georgics = body.member.find((m: { "@id": string }) => m["@id"] === GEORGICS);
    expect(georgics["@type"]).toBe("Resource");
    expect(georgics.maxCiteDepth).toBe(2);
    expect(georgics.references).toBe(`/api/dts/navigation?id=${GEORGICS}`);
    expect(georgics.citeStructure).toEqual([{ citeType: "book", citeStructure: [{ citeType: "line" }] }]);
  });

  it("returns a Resource with passage, references, download, maxCiteDepth, citeStructure and dublinCore", async () => {
    const body = await (await tree.fetch(coll(`?id=${q(CAESAR)}`))).json();
    expect(body["@type"]).toBe("Resource");
    expect(body.totalItems).toBe(0);
    expect(body.totalChildren).toBe(0);
    expect(body.totalParents).toBe(1);
    expect(body.maxCiteDepth).toBe(3);
    expect(body.passage).toBe(`/api/dts/document?id=${CAESAR}{&ref}{&start}{&end}`);
    expect(body.references).toBe(`/api/dts/navigation?id=${CAESAR}`);
    expect(body.download).toBe(`/api/dts/document?id=${CAESAR}`);
    expect(body.citeStructure).toEqual([
      { citeType: "book", citeStructure: [{ citeType: "chapter", citeStructure: [{ citeType: "section" }] }] },
    ]);
    expect(body.dublinCore.language).toEqual(["la"]);
    expect(body.member).toBeUndefined();
    const odyssey = await (await tree.fetch(coll(`?id=${q(ODYSSEY)}`))).json();
    expect(odyssey.title).toBe("Odyssey (Ὀδύσσεια)");
    expect(odyssey.dublinCore.title).toContainEqual({ lang: "grc", value: "Ὀδύσσεια" });
    const livy = await (await tree.fetch(coll(`?id=${q(LIVY)}`))).json();
    expect(livy.maxCiteDepth).toBe(0);
    expect(livy.references).toBeUndefined();
  });

  it("lists parents with nav=parents", async () => {
    const body = await (await tree.fetch(coll(`?id=${q(CAESAR)}&nav=parents`))).json();
    expect(body.totalItems).toBe(body.totalParents);
    expect(body.member.map((m: { "@id": string }) => m["@id"])).toEqual(["urn:dts:sample:latin"]);
    const root = await (await tree.fetch(coll("?nav=parents"))).json();
    expect(root.totalItems).toBe(0);
    expect(root.member).toEqual([]);
  });

  it("rejects an unknown id (404), a bad nav or page (400) and a page past the last (404) as Hydra Status", async () => {
    expect(await jsonError(coll("?id=urn:nothing"), 404)).toMatch(/urn:nothing/);
    expect(await jsonError(coll("?nav=siblings"), 400)).toMatch(/nav must be/);
    expect(await jsonError(coll("?page=0"), 400)).toMatch(/page must be/);
    expect(await jsonError(coll("?page=x"), 400)).toMatch(/page must be/);
    expect(await jsonError(coll("?page=2"), 404)).toMatch(/past the last page/);
  });

  it("pages members with a view", async () => {
    const paged = await serveCorpus(EMBEDDED, { pageSize: 2 });
    try {
      const first = await (await paged.fetch(coll("?id=urn:dts:sample:latin"))).json();
      expect(first.totalItems).toBe(4);
      expect(first.member).toHaveLength(2);
      expect(first.view).toEqual({
        "@id": "/api/dts/collection?id=urn:dts:sample:latin&page=1",
        "@type": "PartialCollectionView",
        first: "/api/dts/collection?id=urn:dts:sample:latin&page=1",
        next: "/api/dts/collection?id=urn:dts:sample:latin&page=2",
        last: "/api/dts/collection?id=urn:dts:sample:latin&page=2",
      });
      const second = await (await paged.fetch(coll("?id=urn:dts:sample:latin&page=2"))).json();
      expect(second.member.map((m: { "@id": string }) => m["@id"])).not.toContain(first.member[0]["@id"]);
      expect(second.view.previous).toBe("/api/dts/collection?id=urn:dts:sample:latin&page=1");
      expect(second.view.next).toBeUndefined();
      expect((await paged.fetch(coll("?id=urn:dts:sample:latin&page=3"))).status).toBe(404);
    } finally {
      await paged.close();
    }
  });
});

describe("Navigation endpoint", () => {
  const refs = (body: { member: { ref?: string }[] }): (string | undefined)[] => body.member.map((m) => m.ref);

  it("lists the top level by default, with level 0 and parent null for the whole document", async () => {
    const body = await (await tree.fetch(nav(CAESAR))).json();
    expect(body["@id"]).toBe(`/api/dts/navigation?id=${CAESAR}`);
    expect(body.maxCiteDepth).toBe(3);
    expect(body.level).toBe(0);
    expect(body.parent).toBeNull();
    expect(body.citeType).toBe("book");
    expect(body.passage).toBe(`/api/dts/document?id=${CAESAR}{&ref}{&start}{&end}`);
    expect(body.member).toEqual([
      { ref: "1", level: 1 },
      { ref: "2", level: 1 },
    ]);
  });

  it("goes down N levels (only that level) and to max", async () => {
    expect(refs(await (await tree.fetch(nav(CAESAR, "&down=2"))).json())).toEqual(["1.1", "1.2", "2.1"]);
    const max = await (await tree.fetch(nav(CAESAR, "&down=max"))).json();
    expect(refs(max)).toEqual(["1.1.1", "1.1.2", "1.1.3", "1.1.4", "1.2.1", "1.2.2", "1.2.3", "2.1.1", "2.1.2"]);
    expect(max.citeType).toBe("section");
  });

  it("lists the children of a ref, with the parent of the ref", async () => {
    const body = await (await tree.fetch(nav(CAESAR, "&ref=1.2"))).json();
    expect(body.level).toBe(2);
    expect(body.parent).toEqual({ "@type": "CitableUnit", ref: "1" });
    expect(refs(body)).toEqual(["1.2.1", "1.2.2", "1.2.3"]);
    const top = await (await tree.fetch(nav(CAESAR, "&ref=1"))).json();
    expect(top.parent).toEqual({ "@type": "Resource", "@id": CAESAR });
  });

  it("answers down=0 with the node only for a ref, and the units of a range", async () => {
    const node = await (await tree.fetch(nav(CAESAR, "&ref=1.1&down=0"))).json();
    expect(node.member).toEqual([]);
    expect(node.citeType).toBe("chapter");
    const range = await (await tree.fetch(nav(CATULLUS, "&start=3&end=5&down=0"))).json();
    expect(refs(range)).toEqual(["3", "4", "5"]);
    expect(range.parent).toBeNull();
    expect(range.level).toBe(1);
  });

  it("groups members without crossing a parent", async () => {
    const body = await (await tree.fetch(nav(GEORGICS, "&down=2&groupBy=5"))).json();
    expect(body.member).toEqual([
      { start: "1.1", end: "1.5", level: 2 },
      { start: "1.6", end: "1.10", level: 2 },
      { start: "1.11", end: "1.12", level: 2 },
      { start: "2.1", end: "2.5", level: 2 },
      { start: "2.6", end: "2.8", level: 2 },
    ]);
  });

  it("pages members with max, linking the other pages", async () => {
    const r = await tree.fetch(nav(CATULLUS, "&max=5&page=2"));
    const body = await r.json();
    expect(refs(body)).toEqual(["6", "7", "8", "9", "10"]);
    const l = links(r);
    expect(l.prev).toBe(`/api/dts/navigation?id=${CATULLUS}&max=5&page=1`);
    expect(l.next).toBe(`/api/dts/navigation?id=${CATULLUS}&max=5&page=3`);
    expect(l.last).toBe(`/api/dts/navigation?id=${CATULLUS}&max=5&page=3`);
    expect(await jsonError(nav(CATULLUS, "&max=5&page=4"), 404)).toMatch(/past the last page/);
  });

  it("gives per-member citeType where it differs from the response's", async () => {
    const body = await (await tree.fetch(nav(EDGE))).json();
    expect(body.citeType).toBeDefined();
    for (const m of body.member) expect(m.citeType).toBeUndefined();
  });

  it("rejects bad parameters (400) and unknown ids and refs (404)", async () => {
    expect(await jsonError(nav(CAESAR, "&down=x"), 400)).toMatch(/down must be/);
    expect(await jsonError(nav(CAESAR, "&down=0"), 400)).toMatch(/down=0 needs/);
    expect(await jsonError(nav(CAESAR, "&start=1"), 400)).toMatch(/both start and end/);
    expect(await jsonError(nav(CAESAR, "&ref=1&start=1&end=2"), 400)).toMatch(/ref cannot be combined/);
    expect(await jsonError(nav(CAESAR, "&groupBy=0"), 400)).toMatch(/groupBy/);
    expect(await jsonError(nav(CAESAR, "&page=2"), 400)).toMatch(/page needs max/);
    expect(await jsonError(nav("urn:nothing"), 404)).toMatch(/no document with the id/);
    expect(await jsonError(nav(CAESAR, "&ref=9"), 404)).toMatch(/no passage with the reference/);
    expect(await jsonError("/api/dts/navigation", 400)).toMatch(/id is missing/);
  });
});

describe("entry point, API documentation and context", () => {
  it("serves the entry point at the base path, with and without a trailing slash", async () => {
    for (const path of ["/api/dts", "/api/dts/"]) {
      const body = await (await tree.fetch(path)).json();
      expect(body["@type"]).toBe("EntryPoint");
      expect(body.collection).toBe("/api/dts/collection");
      expect(body.document).toBe("/api/dts/document");
      expect(body.navigation).toBe("/api/dts/navigation");
      expect(body.collections).toBe(body.collection);
      expect(body.documents).toBe(body.document);
    }
  });

  it("serves Hydra documentation with one operation per supported method", async () => {
    const r = await tree.fetch("/api/dts/docs");
    const body = await r.json();
    expect(body["@type"]).toBe("ApiDocumentation");
    expect(body.supportedOperations.map((o: { method: string }) => o.method)).toEqual(["GET"]);
    for (const o of body.supportedOperations) expect(o["@type"]).toBe("Operation");
  });

  it("serves a valid JSON-LD context holding every term the responses use", async () => {
    const context = (await (await tree.fetch("/api/dts/context.json")).json())["@context"];
    const used = new Set<string>();
    const collect = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(collect);
      else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (!k.startsWith("@") && k !== "dublinCore" && k !== "extensions") used.add(k);
          if (k !== "dublinCore" && k !== "extensions") collect(x);
        }
      }
    };
    collect(await (await tree.fetch(coll("?id=urn:dts:sample:latin"))).json());
    collect(await (await tree.fetch(nav(CAESAR, "&groupBy=1"))).json());
    collect(await (await tree.fetch(nav(CAESAR))).json());
    collect(await (await tree.fetch("/api/dts")).json());
    const vocabTerms = new Set(["title", "description", "totalItems", "member", "view"]);
    for (const term of used) if (!vocabTerms.has(term)) expect(context, term).toHaveProperty(term);
  });

  it("answers an unknown path with a JSON 404 naming the entry point", async () => {
    expect(await jsonError("/api/dts/nothing", 404)).toMatch(/entry point is \/api\/dts/);
  });
});

describe("identifiers and references that need escaping", () => {
  const edgeRefs = ["1.pr", "1.12b", "1.a b", "2.α", "2.x;y", "2.1/2"];

  it("round-trips through query strings, Link headers and file names", async () => {
    for (const ref of edgeRefs) {
      const r = await tree.fetch(doc(EDGE, `&ref=${q(ref)}`));
      expect(r.status, ref).toBe(200);
      expect(r.headers.get("cache-control"), `${ref} is served from a stored file`).toMatch(/max-age/);
      const value = ref.split(".").slice(1).join(".");
      expect(await r.text()).toContain(`n="${value}"`);
    }
    const r = await tree.fetch(doc(EDGE, `&ref=${q("2.α")}`));
    const next = links(r).next;
    expect(next).toBe("/api/dts/document?id=urn:dts:sample:edge:odd%20refs&ref=2.x%3By");
    const followed = await tree.fetch(next);
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain('n="x;y"');
  });

  it("lists the references in navigation exactly as written", async () => {
    const body = await (await tree.fetch(nav(EDGE, "&down=2"))).json();
    expect(body.member.map((m: { ref: string }) => m.ref)).toEqual(["1.pr", "1.1", "1.12b", "1.a b", ...edgeRefs.slice(3)]);
  });
});

describe("serving", () => {
  it("answers HEAD with the headers of GET and no body", async () => {
    const get = await tree.fetch(doc(GEORGICS, "&ref=1.1"));
    const head = await tree.fetch(doc(GEORGICS, "&ref=1.1"), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const h of ["content-type", "link", "etag", "access-control-allow-origin"]) {
      expect(head.headers.get(h), h).toBe(get.headers.get(h));
    }
  });

  it("gives static responses an ETag and Cache-Control, and answers a conditional GET with 304", async () => {
    const r = await tree.fetch(doc(GEORGICS, "&ref=1.1"));
    const etag = r.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(r.headers.get("cache-control")).toMatch(/max-age=\d+/);
    const again = await tree.fetch(doc(GEORGICS, "&ref=1.1"), { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("sends CORS headers on every response, errors and computed ones included", async () => {
    for (const path of [doc(GEORGICS, "&start=1.1&end=1.2"), doc("urn:nothing"), coll("?nav=x"), "/api/dts/nothing"]) {
      const r = await tree.fetch(path);
      expect(r.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(r.headers.get("access-control-expose-headers"), path).toMatch(/Link/);
    }
    const preflight = await tree.fetch(doc(GEORGICS), { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers writes with 403 saying how to enable them while no token is configured", async () => {
    const r = await tree.fetch(doc(GEORGICS, "&ref=1.1"), { method: "PUT", body: "<TEI/>" });
    expect(r.status).toBe(403);
    const body = await r.text();
    expect(body).toMatch(/statusCode="403"/);
    expect(body).toMatch(/set DTS_TOKEN and start `dts serve --corpus/);
    const post = await tree.fetch(coll(), { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toMatch(/GET/);
  });
});
