// The requests MyCapytain's HTTP resolver (Capitains/MyCapytain, `HttpDtsResolver`, a client of
// the DTS drafts that parses every answer with a JSON-LD processor) makes, sent as it sends them
// to `dts serve` on a default build, and each answer read as it reads it: expanded with no base
// (it passes the parsed JSON, not the URL), the keys it requires looked up by their IRIs, the
// shapes it assumes checked (metadata values are value objects, page links literals, passages
// parseable from a decoded string). The walk: getMetadata on every collection, getReffs at every
// level and under a ref, getTextualNode for a passage and a range.

import { XMLValidator } from "fast-xml-parser";
import jsonld from "jsonld";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAESAR } from "./helpers/embedded.js";
import { DTS, HYDRA } from "./helpers/jsonld.js";
import { EMBEDDED, HAS_SHARED, type ServedTree, SHARED, SHARED_SKIP, serveCorpus } from "./helpers/tree.js";

type Node = Record<string, unknown[]>;

/** As MyCapytain's retriever: `requests.get` with its Accept header, the query as a dict (None values dropped). */
async function get(url: string, params: Record<string, string | number | undefined>, accept: string): Promise<Response> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, String(v));
  return fetch(u, { headers: { Accept: accept, "Accept-Charset": "utf-8" } });
}

/** pyld's `jsonld.expand(data)`: no base; contexts fetched over HTTP (here only from the server under test). */
async function expand(data: unknown, origin: string): Promise<Node[]> {
  const documentLoader = async (url: string) => {
    if (new URL(url).origin !== origin) throw new Error(`context outside the server: ${url}`);
    return { contextUrl: undefined, documentUrl: url, document: await (await fetch(url)).json() };
  };
  return (await jsonld.expand(data as jsonld.JsonLdDocument, { documentLoader } as jsonld.Options.Expand)) as unknown as Node[];
}

/** `dict_to_literal`: every metadata value is a value object, `@value` and maybe `@language`. */
function expectLiterals(metadata: unknown[] | undefined, where: string): number {
  let count = 0;
  for (const block of (metadata ?? []) as Node[]) {
    for (const [predicate, values] of Object.entries(block)) {
      expect(predicate, where).toMatch(/^https?:\/\//);
      for (const v of values as Record<string, unknown>[]) {
        expect(
          Object.keys(v).filter((k) => k !== "@language"),
          `${where} ${predicate}`,
        ).toEqual(["@value"]);
        count++;
      }
    }
  }
  return count;
}

/** `DtsCitationSet.ingest`: nodes, each with a `citeType` value, nested the same way (no RDF list). */
function citationNames(structure: unknown[] | undefined): string[] {
  const names: string[] = [];
  for (const node of (structure ?? []) as Node[]) {
    expect(node["@list"], "citeStructure read as a list of nodes").toBeUndefined();
    names.push(String((node[`${DTS}citeType`][0] as { "@value": string })["@value"]));
    names.push(...citationNames(node[`${DTS}citeStructure`]).map((n) => `  ${n}`));
  }
  return names;
}

interface Walked {
  collections: number;
  readable: { id: string; citation: string[] }[];
  metadataValues: number;
  pagesFollowed: number;
}

/** getMetadata on the root and every collection below it, children paged as MyCapytain pages them. */
async function walkCatalogue(entry: Record<string, string>, origin: string): Promise<Walked> {
  const walked: Walked = { collections: 0, readable: [], metadataValues: 0, pagesFollowed: 0 };
  const queue: (string | undefined)[] = [undefined];
  const seen = new Set<string>();
  while (queue.length) {
    const id = queue.shift();
    const r = await get(entry.collections, { id }, "application/ld+json");
    expect(r.status, `collection ${id}`).toBe(200);
    const raw = await r.json();
    const [node] = await expand(raw, origin);
    // `_parse_metadata`: title and totalItems are looked up with no default.
    expect(node[`${HYDRA}title`], `${id}: hydra:title`).toBeDefined();
    expect(node[`${HYDRA}totalItems`], `${id}: hydra:totalItems`).toBeDefined();
    walked.metadataValues += expectLiterals(node[`${DTS}dublinCore`], `${id} dublinCore`);
    walked.metadataValues += expectLiterals(node[`${DTS}extensions`], `${id} extensions`);
    walked.collections++;
    if (node["@type"]?.includes(`${DTS}Resource`) && raw.references) {
      walked.readable.push({ id: raw["@id"], citation: citationNames(node[`${DTS}citeStructure`]) });
    }
    // Children: the members of this answer, then each `hydra:next` page, its number read from the literal.
    let page: Node = node;
    for (;;) {
      for (const m of (page[`${HYDRA}member`] ?? []) as Node[]) {
        expect(m[`${HYDRA}title`]).toBeDefined();
        expect(m[`${HYDRA}totalItems`]).toBeDefined();
        walked.metadataValues += expectLiterals(m[`${DTS}extensions`], "member extensions");
      }
      for (const m of (raw.member ?? []) as { "@id": string }[]) {
        if (!seen.has(m["@id"])) {
          seen.add(m["@id"]);
          queue.push(m["@id"]);
        }
      }
      const next = ((page[`${HYDRA}view`]?.[0] as Node | undefined)?.[`${HYDRA}next`]?.[0] as { "@value"?: string } | undefined)?.[
        "@value"
      ];
      if (next === undefined) break;
      const number = /page=(\d+)/.exec(next)?.[1];
      expect(number, `next page of ${id}: ${next}`).toBeDefined();
      const more = await (await get(entry.collections, { id: raw["@id"], page: number }, "application/ld+json")).json();
      raw.member = more.member;
      [page] = await expand(more, origin);
      walked.pagesFollowed++;
    }
    // `.parents`
    if (id !== undefined) expect((await get(entry.collections, { id, nav: "parents" }, "application/ld+json")).status).toBe(200);
  }
  return walked;
}

/** getReffs(textId, level, subreference): `level` and `groupBy=1`, as it always sends them; the references it reads. */
async function getReffs(entry: Record<string, string>, origin: string, id: string, level: number, sub: Record<string, string> = {}) {
  const r = await get(entry.navigation, { id, ...sub, level, groupBy: 1 }, "application/ld+json");
  expect(r.status, `getReffs ${id} level ${level}`).toBe(200);
  const [node] = await expand(await r.json(), origin);
  expect(node[`${DTS}level`]).toBeDefined();
  return ((node[`${HYDRA}member`] ?? []) as Node[]).map((m) => {
    const value = (k: string) => (m[`${DTS}${k}`]?.[0] as { "@value"?: string } | undefined)?.["@value"];
    return value("ref") ?? `${value("start")}-${value("end")}`;
  });
}

/** getTextualNode: the passage's text as lxml reads it from a decoded string, and its Link relations. */
async function getTextualNode(entry: Record<string, string>, params: Record<string, string>): Promise<{ text: string; links: string }> {
  const r = await get(entry.documents, params, "application/tei+xml, application/xml");
  expect(r.status, JSON.stringify(params)).toBe(200);
  const text = await r.text();
  // lxml refuses a decoded string that declares its encoding.
  expect(text).not.toMatch(/^<\?xml[^?]*encoding=/);
  expect(XMLValidator.validate(text)).toBe(true);
  return { text, links: r.headers.get("link") ?? "" };
}

async function readEntry(tree: ServedTree): Promise<Record<string, string>> {
  const entryUrl = `${tree.server.url}/api/dts`;
  const entry = await (await fetch(entryUrl)).json();
  // `routes`: the plural keys, joined to the entry's URL.
  return Object.fromEntries(["collections", "documents", "navigation"].map((k) => [k, new URL(entry[k], entryUrl).href]));
}

/** The whole walk on one corpus: every collection, then for each readable text its references at every level, a passage, a range. */
async function walk(tree: ServedTree, pick: (texts: Walked["readable"]) => Walked["readable"]) {
  const origin = new URL(tree.server.url).origin;
  const entry = await readEntry(tree);
  const catalogue = await walkCatalogue(entry, origin);
  const texts = pick(catalogue.readable);
  let passages = 0;
  for (const { id, citation } of texts) {
    const depth = citation.filter((c) => !c.startsWith(" ")).length > 0 ? citation.length : 0;
    expect(depth, `${id}: citation tree`).toBeGreaterThan(0);
    const top = await getReffs(entry, origin, id, 1);
    expect(top.length).toBeGreaterThan(0);
    // Groups of one: `start-end` of the same unit.
    const firstRef = top[0].split("-")[0];
    if (citation.length > 1) {
      const deeper = await getReffs(entry, origin, id, 2);
      const down2 = await (await fetch(`${entry.navigation}?id=${encodeURIComponent(id)}&down=2`)).json();
      expect(deeper.map((r) => r.split("-")[0])).toEqual(down2.member.map((m: { ref: string }) => m.ref));
      expect(await getReffs(entry, origin, id, 1, { ref: firstRef })).not.toEqual([]);
    }
    const passage = await getTextualNode(entry, { id, ref: firstRef });
    expect(passage.text).toContain("fragment");
    passages++;
    if (top.length > 1) {
      const second = top[1].split("-")[0];
      await getTextualNode(entry, { id, start: firstRef, end: second });
      // `passage.next`: the Link relation's ref.
      expect(new URLSearchParams(/<[^>]*\?([^>]*)>;\s*rel="next"/.exec(passage.links)?.[1] ?? "").get("ref")).toBe(second);
    }
  }
  return { ...catalogue, texts: texts.length, passages };
}

describe("MyCapytain's requests on the embedded corpus (default build)", () => {
  let tree: ServedTree;
  beforeAll(async () => {
    tree = await serveCorpus(EMBEDDED);
  });
  afterAll(() => tree.close());

  it("walks every collection, every text at every level, a passage and a range of each", async () => {
    const result = await walk(tree, (t) => t);
    expect(result.collections).toBeGreaterThanOrEqual(9);
    expect(result.texts).toBeGreaterThanOrEqual(5);
    expect(result.metadataValues).toBeGreaterThan(20);
    const caesar = (await walkCatalogue(await readEntry(tree), new URL(tree.server.url).origin)).readable.find((t) => t.id === CAESAR);
    expect(caesar?.citation).toEqual(["book", "  chapter", "    section"]);
  });

  it("`level` is read as `down`: level 2 lists the units two levels down", async () => {
    const entry = await readEntry(tree);
    const origin = new URL(tree.server.url).origin;
    const down = async (query: string): Promise<string[]> =>
      (await (await fetch(`${entry.navigation}?id=${encodeURIComponent(CAESAR)}${query}`)).json()).member.map(
        (m: { ref: string }) => `${m.ref}-${m.ref}`,
      );
    const level2 = await getReffs(entry, origin, CAESAR, 2);
    expect(level2).toEqual(await down("&down=2"));
    expect(level2).not.toEqual(await down(""));
    expect(level2.every((r) => r.split("-")[0].split(".").length === 2)).toBe(true);
    const under1 = await getReffs(entry, origin, CAESAR, 2, { ref: "1" });
    expect(under1).toEqual(await down("&ref=1&down=2"));
    expect(under1.every((r) => r.startsWith("1.") && r.split("-")[0].split(".").length === 3)).toBe(true);
    // Both names, disagreeing: refused, said why.
    const both = await fetch(`${entry.navigation}?id=${encodeURIComponent(CAESAR)}&down=1&level=2`);
    expect(both.status).toBe(400);
    expect((await both.json()).description).toContain("level is Draft 1's name of down");
  });

  it("page links are literals with the page number (a page size of 2)", async () => {
    const paged = await serveCorpus(EMBEDDED, { pageSize: 2 });
    try {
      const result = await walkCatalogue(await readEntry(paged), new URL(paged.server.url).origin);
      expect(result.pagesFollowed).toBeGreaterThan(0);
      expect(result.collections).toBeGreaterThanOrEqual(9);
    } finally {
      await paged.close();
    }
  });
});

if (!HAS_SHARED) console.warn(SHARED_SKIP);
describe.skipIf(!HAS_SHARED)("MyCapytain's requests on real corpora (default build)", () => {
  it("priapeia: structured Dublin Core and extensions read as literals", async () => {
    const tree = await serveCorpus(`${SHARED}/priapeia`);
    try {
      const result = await walk(tree, (t) => t);
      expect(result.texts).toBe(3);
      expect(result.metadataValues).toBeGreaterThan(30);
    } finally {
      await tree.close();
    }
  }, 60_000);

  it("greekLit: the Iliad by book and line", async () => {
    const tree = await serveCorpus(`${SHARED}/greekLit`);
    try {
      const result = await walk(tree, (t) => t.slice(0, 3));
      expect(result.passages).toBe(3);
    } finally {
      await tree.close();
    }
  }, 120_000);
});
