// JSON-LD processors read every answer as RDF: expanded in safe mode (a term the context does not
// define, a dropped value or an unloadable context is an error) with a loader that reaches only
// the server under test, every kind of JSON-LD answer of 1-draft2 (entry, documentation, context,
// collections and resources, their parents, paged views, navigation, errors) yields the Hydra,
// DTS and Dublin Core IRIs it means, and `extensions` its own vocabularies' terms.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite, type Site } from "../builder/site.js";
import { PUBLISHED_CONTEXT } from "../builder/wire.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { CAESAR, EDGE, GEORGICS, ODYSSEY } from "./helpers/embedded.js";
import { DCT, DTS, type Expanded, expandAt, HYDRA, irisOf, valuesOf } from "./helpers/jsonld.js";
import { EMBEDDED, HAS_SHARED, SHARED, SHARED_SKIP } from "./helpers/tree.js";

const BIBO = "http://purl.org/ontology/bibo/";

/** The embedded corpus, its Odyssey given extensions (a declared prefix, a well-known one, a full IRI) and non-DC keys. */
function corpusWithExtensions(): string {
  const corpus = mkdtempSync(join(tmpdir(), "dts-jsonld-corpus-"));
  cpSync(EMBEDDED, corpus, { recursive: true });
  const file = join(corpus, "greek", "odyssey.json");
  const meta = JSON.parse(readFileSync(file, "utf8"));
  meta.dublinCore.author = ["Homerus"];
  meta.dublinCore.colour = ["wine-dark"];
  meta.extensions = {
    "@context": { bibo: BIBO },
    "bibo:shortTitle": [{ lang: "en", value: "Od." }],
    "schema:genre": ["epic"],
    "https://example.org/terms#shelfmark": ["A 1"],
    curator: ["nobody"],
  };
  writeFileSync(file, JSON.stringify(meta));
  return corpus;
}

async function serve(corpus: string, site: Site): Promise<{ dist: string; server: RunningServer; warnings: string[] }> {
  const dist = mkdtempSync(join(tmpdir(), "dts-jsonld-"));
  const report = await build({ corpus, out: dist, site, workers: 0 });
  const server = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
  return { dist, server, warnings: report.warnings.map((w) => w.message) };
}

/** Every property IRI of the answer is one of these namespaces'. */
function expectNamespaces(expanded: Expanded, url: string, namespaces: string[]): void {
  for (const p of irisOf(expanded).properties) {
    expect(
      namespaces.some((ns) => p.startsWith(ns)),
      `${url}: ${p}`,
    ).toBe(true);
  }
}

/** Every collection and resource of the catalogue, by the members of each (plain JSON, as a client walks). */
async function catalogue(base: string): Promise<{ id: string; pages: number }[]> {
  const seen = new Map<string, number>();
  const queue: (string | undefined)[] = [undefined];
  while (queue.length) {
    const id = queue.shift();
    const first = await (await fetch(`${base}/api/dts/collection${id === undefined ? "" : `?id=${encodeURIComponent(id)}`}`)).json();
    const last = first.view?.last ? Number(new URL(first.view.last, base).searchParams.get("page")) : 1;
    seen.set(first["@id"], last);
    for (let page = 1; page <= last; page++) {
      const body =
        page === 1 ? first : await (await fetch(`${base}/api/dts/collection?id=${encodeURIComponent(first["@id"])}&page=${page}`)).json();
      for (const m of body.member ?? []) if (!seen.has(m["@id"]) && !queue.includes(m["@id"])) queue.push(m["@id"]);
    }
  }
  return [...seen].map(([id, pages]) => ({ id, pages }));
}

describe("JSON-LD: every 1-draft2 answer expands, on dts serve with the default build", () => {
  let corpus: string;
  let dist: string;
  let server: RunningServer;
  let warnings: string[];
  const url = (path: string): string => server.url + path;
  // The edge cases' ids have spaces: no IRIs (see expandAt).
  const expand = (path: string): Promise<Expanded> =>
    expandAt(url(path), [new URL(server.url).origin], { idsThatAreNoIris: decodeURIComponent(path).includes("sample:edge") });

  beforeAll(async () => {
    corpus = corpusWithExtensions();
    // A page size of 2 gives the root collection paged views; no site URL, as `npm start` builds.
    ({ dist, server, warnings } = await serve(corpus, makeSite({ pageSize: 2, apis: ["1-draft2", "1.0"] })));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
    rmSync(corpus, { recursive: true, force: true });
  });

  it("names the tree's own context, absolute at the request's origin, and serves it", async () => {
    const body = await (await fetch(url("/api/dts/collection"))).json();
    expect(body["@context"]).toBe(`${server.url}/api/dts/context.json`);
    // Another origin for the same server (a name instead of the address) gets its own.
    const port = new URL(server.url).port;
    const viaName = await (
      await fetch(`http://localhost:${port}/api/dts/collection`).catch(() => fetch(url("/api/dts/collection")))
    ).json();
    expect([`http://localhost:${port}/api/dts/context.json`, `${server.url}/api/dts/context.json`]).toContain(viaName["@context"]);
    const context = await fetch(url("/api/dts/context.json"));
    expect(context.status).toBe(200);
    expect(typeof (await context.json())["@context"]).toBe("object");
  });

  it("the entry point and the API documentation", async () => {
    const entry = await expand("/api/dts");
    expect(irisOf(entry).types).toContain(`${DTS}EntryPoint`);
    // `collections` is an alias of `collection`: the same IRI, the same value.
    expect(valuesOf(entry, `${DTS}collection`)).toContainEqual({ "@id": `${server.url}/api/dts/collection` });
    expect(valuesOf(entry, `${DTS}navigation`)).toEqual([{ "@id": `${server.url}/api/dts/navigation` }]);
    const docs = await expand("/api/dts/docs");
    expect(irisOf(docs).types).toContain(`${HYDRA}ApiDocumentation`);
    expect(irisOf(docs).properties).toContain(`${HYDRA}supportedOperation`);
    expectNamespaces(docs, "docs", [HYDRA]);
  });

  it("every collection and resource, each page, and their parents", async () => {
    const nodes = await catalogue(server.url);
    expect(nodes.length).toBeGreaterThanOrEqual(9);
    let paged = 0;
    for (const { id, pages } of nodes) {
      const q = `id=${encodeURIComponent(id)}`;
      for (let page = 1; page <= pages; page++) {
        const path = `/api/dts/collection?${q}${pages > 1 ? `&page=${page}` : ""}`;
        const expanded = await expand(path);
        // An id that is no IRI (the native layout's `default`, `greek`) is read relative to the answer's URL, as JSON-LD reads any.
        if (!id.includes(" ")) expect(expanded[0]["@id"], path).toBe(new URL(id, url(path)).href);
        expect(irisOf(expanded).types.has(`${DTS}Collection`) || irisOf(expanded).types.has(`${DTS}Resource`), path).toBe(true);
        expectNamespaces(expanded, path, [HYDRA, DTS, DCT, BIBO, "https://schema.org/", "https://example.org/terms#"]);
        if (pages > 1) {
          paged++;
          const [view] = valuesOf(expanded, `${HYDRA}view`) as Record<string, unknown>[];
          expect(view["@type"]).toEqual([`${HYDRA}PartialCollectionView`]);
          expect(view[`${HYDRA}first`]).toBeDefined();
          expect(view[`${HYDRA}last`]).toBeDefined();
        }
      }
      await expand(`/api/dts/collection?${q}&nav=parents`);
    }
    expect(paged).toBeGreaterThan(0);
  });

  it("Dublin Core keys expand to DCMI terms; a non-DC key is mapped or refused, never emitted as DC", async () => {
    const expanded = await expand(`/api/dts/collection?id=${encodeURIComponent(ODYSSEY)}`);
    const [dc] = valuesOf(expanded, `${DTS}dublinCore`) as Record<string, unknown>[];
    expect(dc[`${DCT}title`]).toContainEqual({ "@language": "grc", "@value": "Ὀδύσσεια" });
    // `author` is Dublin Core's `creator`; `colour` is no term: left out, with a warning.
    expect(dc[`${DCT}creator`]).toContainEqual({ "@value": "Homerus" });
    expect(Object.keys(dc).filter((k) => !k.startsWith(DCT))).toEqual([]);
    expect(dc[`${DCT}author`]).toBeUndefined();
    expect(dc[`${DCT}colour`]).toBeUndefined();
    expect(warnings.some((w) => w.includes("dublinCore.colour is not a Dublin Core term"))).toBe(true);
  });

  it("extensions expand to the terms of their own vocabularies", async () => {
    const expanded = await expand(`/api/dts/collection?id=${encodeURIComponent(ODYSSEY)}`);
    const [ext] = valuesOf(expanded, `${DTS}extensions`) as Record<string, unknown>[];
    expect(ext[`${BIBO}shortTitle`]).toEqual([{ "@language": "en", "@value": "Od." }]);
    expect(ext["https://schema.org/genre"]).toEqual([{ "@value": "epic" }]);
    expect(ext["https://example.org/terms#shelfmark"]).toEqual([{ "@value": "A 1" }]);
    expect(Object.keys(ext).sort()).toEqual([`${BIBO}shortTitle`, "https://example.org/terms#shelfmark", "https://schema.org/genre"]);
    // A key with no vocabulary would pass for a Hydra term: refused at the build, said why.
    expect(warnings.some((w) => w.includes("extensions.curator"))).toBe(true);
    // The same terms as members of their collection.
    const parent = (await (await fetch(url(`/api/dts/collection?id=${encodeURIComponent(ODYSSEY)}&nav=parents`))).json()).member[0]["@id"];
    const greek = await expand(`/api/dts/collection?id=${encodeURIComponent(parent)}`);
    const member = (valuesOf(greek, `${HYDRA}member`) as Record<string, unknown>[]).find((m) => m["@id"] === ODYSSEY);
    const memberExtensions = (member?.[`${DTS}extensions`] ?? []) as Record<string, unknown>[];
    expect(memberExtensions[0]?.[`${BIBO}shortTitle`]).toBeDefined();
  });

  it("navigation: whole document, a unit, a range, groups, a page of members", async () => {
    for (const id of [GEORGICS, CAESAR, ODYSSEY, EDGE]) {
      const q = `id=${encodeURIComponent(id)}`;
      const top = await (await fetch(url(`/api/dts/navigation?${q}`))).json();
      const refs: string[] = top.member.map((m: { ref: string }) => m.ref);
      const paths = [
        `/api/dts/navigation?${q}`,
        `/api/dts/navigation?${q}&down=max`,
        `/api/dts/navigation?${q}&ref=${encodeURIComponent(refs[0])}`,
        `/api/dts/navigation?${q}&ref=${encodeURIComponent(refs[0])}&down=0`,
        `/api/dts/navigation?${q}&groupBy=2`,
        `/api/dts/navigation?${q}&max=1`,
      ];
      if (refs.length > 1) paths.push(`/api/dts/navigation?${q}&start=${encodeURIComponent(refs[0])}&end=${encodeURIComponent(refs[1])}`);
      for (const path of paths) {
        const expanded = await expand(path).catch((e) => {
          throw new Error(`${path}: ${e.message} ${JSON.stringify(e.details?.event ?? e.details ?? "")}`);
        });
        expectNamespaces(expanded, path, [HYDRA, DTS]);
        const members = valuesOf(expanded, `${HYDRA}member`) as Record<string, unknown>[];
        for (const m of members) expect(m[`${DTS}ref`] ?? m[`${DTS}start`], path).toBeDefined();
      }
    }
    const unit = await expand(`/api/dts/navigation?id=${encodeURIComponent(GEORGICS)}&ref=1`);
    expect(valuesOf(unit, `${DTS}level`)).toEqual([{ "@value": 1 }]);
    expect(valuesOf(unit, `${DTS}citeType`).length).toBe(1);
  });

  it("errors: Hydra Status objects in the same context", async () => {
    for (const path of ["/api/dts/collection?id=nothing", "/api/dts/navigation?id=nothing", "/api/dts/navigation", "/api/dts/nowhere"]) {
      const expanded = await expand(path);
      expect(irisOf(expanded).types, path).toContain(`${HYDRA}Status`);
      expect(valuesOf(expanded, `${HYDRA}statusCode`)[0], path).toMatchObject({ "@value": expect.any(Number) });
      expect(valuesOf(expanded, `${HYDRA}description`).length, path).toBe(1);
    }
    // A DTS 1.0 error is a Status in the same context.
    const v1 = await expand("/api/dts/v1/collection?id=nothing");
    expect(irisOf(v1).types).toContain(`${HYDRA}Status`);
  });
});

describe("JSON-LD: the context under --site-url, and the published one when asked for", () => {
  it("--site-url: stored answers name the context under the public URL, where a processor loads it", async () => {
    const site = makeSite({ siteUrl: "https://edition.example.org" });
    const { dist, server } = await serve(EMBEDDED, site);
    try {
      const body = await (await fetch(`${server.url}/api/dts/collection`)).json();
      expect(body["@context"]).toBe("https://edition.example.org/api/dts/context.json");
      // The public host is this server: the loader is routed to it, as DNS would.
      const route = (u: string): string => u.replace("https://edition.example.org", server.url);
      const expanded = await expandAt(`${server.url}/api/dts/collection`, [new URL(server.url).origin], { route });
      expect(irisOf(expanded).types).toContain(`${DTS}Collection`);
    } finally {
      await server.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("--published-context: the draft-2 address, which a processor that cannot reach it (or parse it) fails on", async () => {
    const { dist, server } = await serve(EMBEDDED, makeSite({ publishedContext: true }));
    try {
      const body = await (await fetch(`${server.url}/api/dts/collection`)).json();
      expect(body["@context"]).toBe(PUBLISHED_CONTEXT);
      await expect(expandAt(`${server.url}/api/dts/collection`, [new URL(server.url).origin])).rejects.toThrow();
    } finally {
      await server.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

if (!HAS_SHARED) console.warn(SHARED_SKIP);
describe.skipIf(!HAS_SHARED)("JSON-LD on real corpora: every collection and resource, and each resource's navigation", () => {
  for (const name of ["priapeia", "formulae-open", "mycapytain-fixtures"]) {
    it(name, async () => {
      const { dist, server } = await serve(join(SHARED, name), makeSite({ pageSize: 50 }));
      const origin = new URL(server.url).origin;
      try {
        const nodes = await catalogue(server.url);
        let resources = 0;
        for (const { id, pages } of nodes) {
          const path = `/api/dts/collection?id=${encodeURIComponent(id)}`;
          for (let page = 1; page <= pages; page++) await expandAt(`${server.url}${path}${page > 1 ? `&page=${page}` : ""}`, [origin]);
          const body = await (await fetch(server.url + path)).json();
          if (body["@type"] !== "Resource" || !body.references) continue;
          resources++;
          const expanded = await expandAt(new URL(body.references, server.url).href, [origin]);
          expect(irisOf(expanded).properties).toContain(`${HYDRA}member`);
        }
        expect(resources).toBeGreaterThan(0);
      } finally {
        await server.close();
        rmSync(dist, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
