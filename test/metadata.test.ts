import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Catalog, CatalogNode, CollectionNode, ResourceNode } from "../builder/catalog.js";
import { CorpusError } from "../builder/catalog.js";
import { newContext } from "../builder/metadata/context.js";
import { loadCtsFiles } from "../builder/metadata/cts.js";
import { normaliseLang } from "../builder/metadata/dublin-core.js";
import { loadCatalog } from "../builder/metadata/load.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "fixtures", "metadata");
const shared = join(here, "..", "..", "shared", "corpora");

function node(cat: Catalog, id: string): CatalogNode {
  const n = cat.nodes.get(id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
}
function collection(cat: Catalog, id: string): CollectionNode {
  const n = node(cat, id);
  if (n.kind !== "collection") throw new Error(`${id} is not a collection`);
  return n;
}
function resource(cat: Catalog, id: string): ResourceNode {
  const n = node(cat, id);
  if (n.kind !== "resource") throw new Error(`${id} is not a resource`);
  return n;
}
function resources(cat: Catalog): ResourceNode[] {
  return [...cat.nodes.values()].filter((n): n is ResourceNode => n.kind === "resource");
}

describe("language codes", () => {
  it("normalises to the shortest standard code and keeps the rest lowercased", () => {
    expect(["lat", "la", "grc", "greek", "eng", "en", "fre", "fra", "ger", "deu", "ita", "spa", "mul", "XYZ"].map(normaliseLang)).toEqual([
      "la",
      "la",
      "grc",
      "grc",
      "en",
      "en",
      "fr",
      "fr",
      "de",
      "de",
      "it",
      "es",
      "mul",
      "xyz",
    ]);
  });
});

describe("native layout", () => {
  const dir = join(fixtures, "native");

  it("takes the root from collection.json and lists folders first, then files", async () => {
    const cat = await loadCatalog(dir);
    expect(cat.rootId).toBe("fixture-root");
    const root = collection(cat, "fixture-root");
    expect(root.title).toBe("Fixture corpus");
    expect(root.description).toBe("Small corpus for the metadata loader tests.");
    expect(root.children).toEqual(["urn:fixture:poems", "prose", "z-root"]);
    expect(collection(cat, "prose").children).toEqual(["prose/nested", "prose/e-text"]);
    expect(collection(cat, "prose/nested")).toMatchObject({ title: "nested", parents: ["prose"] });
  });

  it("ignores names starting with . or _", async () => {
    const cat = await loadCatalog(dir);
    const files = resources(cat).map((r) => r.file);
    expect(files.some((f) => f.includes("_drafts") || f.includes(".hidden") || f.includes("_ignored"))).toBe(false);
  });

  it("reads the teiHeader and lets the sidecar override whole keys", async () => {
    const cat = await loadCatalog(dir);
    const poems = collection(cat, "urn:fixture:poems");
    expect(poems.dublinCore).toEqual({ language: ["la"], title: [{ lang: "en", value: "Poems" }] });
    expect(poems.children).toEqual(["urn:fixture:poems.a", "poems/b-plain", "urn:fixture:poems.c", "poems/d-broken", "poems/e-badjson"]);
    const a = resource(cat, "urn:fixture:poems.a");
    expect(a.title).toBe("Catullus 5 (sidecar title)");
    expect(a.description).toBe("A poem about kisses.");
    expect(a.parents).toEqual(["urn:fixture:poems"]);
    expect(a.file).toBe(join(dir, "poems", "a-poem.xml"));
    expect(a.metadataFile).toBe(join(dir, "poems", "a-poem.json"));
    expect(a.dublinCore).toMatchObject({
      title: [
        { lang: "la", value: "Carmen quintum" },
        { lang: "en", value: "Poem five" },
      ],
      creator: ["C. Valerius Catullus"],
      contributor: ["Robinson Ellis"],
      publisher: ["Fixture press"],
      date: ["2024-05-01"],
      language: ["la"],
    });
    expect(a.extensions).toEqual({ "ex:rating": ["5"] });
    expect(a.vocabularies).toEqual({ ex: "https://example.org/ns#" });
  });

  it("defaults the id to the path and reads authority and the TEI xml:lang", async () => {
    const cat = await loadCatalog(dir);
    const b = resource(cat, "poems/b-plain");
    expect(b.title).toBe("Plain");
    expect(b.dublinCore?.publisher).toEqual(["Someone"]);
    expect(b.dublinCore?.language).toEqual(["grc"]);
    expect(resource(cat, "prose/e-text").dublinCore?.language).toEqual(["fr"]);
  });

  it("lists a sidecar without XML as a record with no text", async () => {
    const cat = await loadCatalog(dir);
    const c = resource(cat, "urn:fixture:poems.c");
    expect(c.title).toBe("A poem not encoded yet");
    expect(c.file).toBe(join(dir, "poems", "c-missing.xml"));
    expect(existsSync(c.file)).toBe(false);
    expect(c.dublinCore?.language).toEqual(["en"]);
  });

  it("warns with line and column for a broken header and still lists the file", async () => {
    const cat = await loadCatalog(dir);
    expect(resource(cat, "poems/d-broken").title).toBe("d-broken");
    const w = cat.warnings.find((x) => x.file.endsWith("d-broken.xml"));
    expect(w).toMatchObject({ line: 4 });
    expect(w?.column).toBeGreaterThan(0);
  });

  it("stops on a broken root collection.json (it sets the root id) and on a missing folder", async () => {
    const bad = loadCatalog(join(fixtures, "native-bad-root"));
    await expect(bad).rejects.toBeInstanceOf(CorpusError);
    await expect(loadCatalog(join(fixtures, "native-bad-root"))).rejects.toMatchObject({ line: 4, column: 1 });
    await expect(loadCatalog(join(fixtures, "no-such-folder"))).rejects.toBeInstanceOf(CorpusError);
  });

  it("warns with a line for invalid sidecar JSON", async () => {
    const cat = await loadCatalog(dir);
    expect(resource(cat, "poems/e-badjson").title).toBe("e-badjson");
    const w = cat.warnings.find((x) => x.file.endsWith("e-badjson.json"));
    expect(w).toMatchObject({ line: 4, column: 1 });
    expect(w?.message).toMatch(/invalid JSON/);
  });
});

describe("CapiTainS 1/2 (__cts__.xml)", () => {
  const dir = join(fixtures, "cts");

  it("builds root -> textgroups -> works -> resources, sorted by id", async () => {
    const cat = await loadCatalog(dir);
    expect(cat.rootId).toBe("urn:fixture:cts");
    expect(collection(cat, "urn:fixture:cts").title).toBe("CTS fixture");
    expect(collection(cat, cat.rootId).children).toEqual(["urn:cts:fixLit:nobody.w1", "urn:cts:fixLit:tg0", "urn:cts:fixLit:tg1"]);
    const tg1 = collection(cat, "urn:cts:fixLit:tg1");
    expect(tg1.title).toBe("Auctor");
    expect(tg1.dublinCore?.title).toEqual([
      { lang: "la", value: "Auctor" },
      { lang: "en", value: "The Author" },
    ]);
    // The work files are in folders named against the id order: sorting must come from the ids.
    expect(tg1.children).toEqual(["urn:cts:fixLit:tg1.w1", "urn:cts:fixLit:tg1.w2"]);
    expect(collection(cat, "urn:cts:fixLit:tg0").dublinCore?.title).toEqual(["Zeroth"]);
  });

  it("keeps resources in file order and skips a duplicate URN with a warning", async () => {
    const cat = await loadCatalog(dir);
    const w1 = collection(cat, "urn:cts:fixLit:tg1.w1");
    expect(w1.title).toBe("First work");
    expect(w1.children).toEqual(["urn:cts:fixLit:tg1.w1.tr-eng1", "urn:cts:fixLit:tg1.w1.ed-lat1", "urn:cts:fixLit:tg1.w1.comm-eng1"]);
    expect(w1.extensions).toEqual({ "saws:isAttributedToAuthor": [{ lang: "en", value: "Someone" }] });
    expect(resource(cat, "urn:cts:fixLit:tg1.w1.tr-eng1").title).toBe("First work, translated");
    const dup = cat.warnings.find((w) => w.message.includes('duplicate id "urn:cts:fixLit:tg1.w1.tr-eng1"'));
    expect(dup).toMatchObject({ file: join(dir, "data", "tg1", "z-first", "__cts__.xml"), line: 34 });
  });

  it("maps labels, descriptions, structured metadata and extensions", async () => {
    const cat = await loadCatalog(dir);
    const ed = resource(cat, "urn:cts:fixLit:tg1.w1.ed-lat1");
    expect(ed.title).toBe("Opus primum");
    expect(ed.description).toBe("An edition, 1900.");
    expect(ed.file).toBe(join(dir, "data", "tg1", "z-first", "tg1.w1.ed-lat1.xml"));
    expect(ed.metadataFile).toBe(join(dir, "data", "tg1", "z-first", "__cts__.xml"));
    expect(ed.dublinCore).toEqual({
      title: [{ lang: "la", value: "Opus primum" }],
      description: [{ lang: "mul", value: "An edition, 1900." }],
      language: ["la"],
      type: ["edition"],
      creator: [{ lang: "en", value: "Structured Creator" }],
      contributor: ["Editor One"],
      publisher: [{ lang: "en", value: "Fixture Press" }],
      dateCopyrighted: 1900,
      source: ["https://example.org/source"],
    });
    expect(ed.extensions).toEqual({ "saws:isAttributedToAuthor": [{ lang: "fr", value: "Quelqu'un" }] });

    const tr = resource(cat, "urn:cts:fixLit:tg1.w1.tr-eng1");
    expect(tr.description).toBe("A translation on two lines.");
    expect(tr.dublinCore?.creator).toEqual([
      { lang: "la", value: "Auctor" },
      { lang: "en", value: "The Author" },
    ]);
    expect(tr.dublinCore?.type).toEqual(["translation"]);
    expect(tr.dublinCore?.language).toEqual(["en"]);

    const comm = resource(cat, "urn:cts:fixLit:tg1.w1.comm-eng1");
    expect(comm.title).toBe("Notes & comments");
    expect(comm.dublinCore?.type).toEqual(["commentary"]);
    expect(comm.dublinCore?.dateCopyrighted).toBeUndefined();
    expect(cat.warnings.some((w) => /dateCopyrighted "circa 1900" is not a year/.test(w.message))).toBe(true);
  });

  it("reads works in the default namespace; an edition without xml:lang takes the work's", async () => {
    const cat = await loadCatalog(dir);
    expect(collection(cat, "urn:cts:fixLit:tg1.w2").title).toBe("Opus alterum");
    expect(resource(cat, "urn:cts:fixLit:tg1.w2.ed-lat1").dublinCore?.language).toEqual(["la"]);
  });

  it("warns about a malformed metadata file with line and column and loads the rest", async () => {
    const cat = await loadCatalog(dir);
    expect(cat.nodes.has("urn:cts:fixLit:tg2")).toBe(false);
    const w = cat.warnings.find((x) => x.file === join(dir, "data", "tg2", "__cts__.xml"));
    expect(w).toMatchObject({ line: 4, column: 1 });
    expect(w?.message).toMatch(/not well-formed/);
  });

  it("puts a work with an undeclared textgroup under the root, with a warning", async () => {
    const cat = await loadCatalog(dir);
    expect(collection(cat, "urn:cts:fixLit:nobody.w1").parents).toEqual(["urn:fixture:cts"]);
    expect(cat.warnings.some((w) => w.message.includes('textgroup "urn:cts:fixLit:nobody" is not declared'))).toBe(true);
  });

  it("warns about XML files no metadata lists, and only those", async () => {
    const cat = await loadCatalog(dir);
    const unlisted = cat.warnings.filter((w) => w.message.includes("not listed in any")).map((w) => w.file);
    expect(unlisted).toEqual([join(dir, "data", "tg1", "z-first", "unlisted.xml")]);
  });
});

describe("CapiTainS 3 (__capitains__.xml), mixed with __cts__.xml", () => {
  const dir = join(fixtures, "capitains3");

  it("links members in order, resolves @path, and puts unclaimed collections under the root", async () => {
    const cat = await loadCatalog(dir);
    expect(cat.rootId).toBe("default");
    expect(collection(cat, "default").title).toBe("Corpus");
    expect(collection(cat, "default").children).toEqual(["urn:cts:fixLit:tgA", "urn:fix:coll"]);
    const coll = collection(cat, "urn:fix:coll");
    expect(coll.title).toBe('Charters <span class="origin">of Somewhere</span>');
    expect(coll.dublinCore?.type).toEqual(["cts:textgroup"]);
    expect(coll.extensions).toEqual({ "bib:AbbreviatedTitle": ["Charters"] });
    // urn:fix:loose is listed by no members element; its <parent> places it.
    expect(coll.children).toEqual(["urn:fix:coll.sub", "urn:fix:coll.inline.lat001", "urn:fix:loose"]);
    // Membership wins over a <parent> that names an unknown collection.
    expect(collection(cat, "urn:fix:coll.sub").parents).toEqual(["urn:fix:coll"]);
  });

  it("reads readable members as resources with Dublin Core and structured metadata", async () => {
    const cat = await loadCatalog(dir);
    const r = resource(cat, "urn:fix:coll.sub.lat001");
    expect(r.title).toBe("Charte numéro 1");
    expect(r.description).toBe("Une charte.");
    expect(r.file).toBe(join(dir, "data", "coll", "sub", "sub.lat001.xml"));
    expect(r.dublinCore).toEqual({
      title: [{ lang: "fr", value: "Charte numéro 1" }],
      description: [{ lang: "fr", value: "Une charte." }],
      language: ["la", "fr"],
      type: ["cts:edition"],
      contributor: ["A. Person"],
      dateCopyrighted: 1853,
      bibliographicCitation: ['Paul <span class="surname">Editor</span>, 1853'],
    });
    expect(r.extensions).toEqual({ "bib:editor": ["Paul Editor"] });
    const inline = resource(cat, "urn:fix:coll.inline.lat001");
    expect(inline.file).toBe(join(dir, "data", "coll", "inline.lat001.xml"));
    expect(inline.dublinCore?.title).toEqual([{ lang: "de", value: "Inline text" }]);
  });

  it("warns with file and line about a member whose file is missing", async () => {
    const cat = await loadCatalog(dir);
    expect(cat.warnings).toEqual([
      {
        file: join(dir, "data", "coll", "__capitains__.xml"),
        line: 12,
        message: 'member "./missing/__capitains__.xml": file not found; skipped',
      },
    ]);
  });

  it("loads the __cts__.xml part of the same tree", async () => {
    const cat = await loadCatalog(dir);
    expect(resource(cat, "urn:cts:fixLit:tgA.w1.ed-lat1").dublinCore?.creator).toEqual([{ lang: "en", value: "A CTS textgroup" }]);
  });
});

describe.skipIf(!existsSync(shared))("shared corpora (../shared/corpora; skipped when absent)", () => {
  it("latinLit: every record, records with no text, and unlisted files", async () => {
    const dir = join(shared, "latinLit");
    const cat = await loadCatalog(dir);
    const all = resources(cat);
    expect(all.length).toBe(460);
    expect(collection(cat, "default").children.length).toBe(54);
    const livy = resource(cat, "urn:cts:latinLit:phi0914.phi001.perseus-lat2");
    expect(livy.title).toBe("Ab urbe condita");
    expect(livy.file).toBe(join(dir, "data", "phi0914", "phi001", "phi0914.phi001.perseus-lat2.xml"));
    expect(existsSync(livy.file)).toBe(false);
    expect(livy.dublinCore?.language).toEqual(["la"]);
    expect(livy.parents).toEqual(["urn:cts:latinLit:phi0914.phi001"]);
    const unlisted = cat.warnings.filter((w) => w.message.includes("not listed in any"));
    expect(unlisted.length).toBe(230);
    expect(unlisted.map((w) => w.file)).toContain(join(dir, "data", "phi0474", "phi020", "phi0474.phi020.perseus-eng1.xml"));
    // Every listed file that exists is claimed, so no text is both listed and reported.
    const listed = new Set(all.map((r) => r.file));
    expect(unlisted.some((w) => listed.has(w.file))).toBe(false);
  });

  it("greekLit: the Iliad's resources and titles", async () => {
    const cat = await loadCatalog(join(shared, "greekLit"));
    const iliad = collection(cat, "urn:cts:greekLit:tlg0012.tlg001");
    expect(iliad.title).toBe("Iliad");
    expect(iliad.parents).toEqual(["urn:cts:greekLit:tlg0012"]);
    expect(iliad.children).toEqual([
      "urn:cts:greekLit:tlg0012.tlg001.perseus-eng3",
      "urn:cts:greekLit:tlg0012.tlg001.perseus-eng4",
      "urn:cts:greekLit:tlg0012.tlg001.perseus-grc2",
    ]);
    const grc = resource(cat, "urn:cts:greekLit:tlg0012.tlg001.perseus-grc2");
    expect(grc.title).toBe("Ἰλιάς");
    expect(grc.dublinCore?.language).toEqual(["grc"]);
    expect(grc.dublinCore?.creator).toEqual([{ lang: "en", value: "Homer" }]);
    expect(existsSync(grc.file)).toBe(true);
    expect(resource(cat, "urn:cts:greekLit:tlg0012.tlg001.perseus-eng3").title).toBe("Iliad");
    expect(collection(cat, "urn:cts:greekLit:tlg0012").title).toBe("Homer");
    expect(cat.warnings).toEqual([]);
  });

  it("mycapytain: structured metadata in a work file and in a textgroup that embeds its works", async () => {
    const capitains = join(shared, "mycapytain-fixtures", "tests", "testing_data", "capitains");
    const ctx = newContext([]);
    const top = await loadCtsFiles([join(capitains, "work_with_structured.xml")], ctx);
    expect(top).toEqual(["urn:cts:greekLit:stoa0033a.tlg028"]);
    const work = ctx.nodes.get("urn:cts:greekLit:stoa0033a.tlg028");
    expect(work?.extensions).toEqual({ "saws:isAttributedToAuthor": [{ lang: "en", value: "Aristote" }] });
    const tr = ctx.nodes.get("urn:cts:greekLit:stoa0033a.tlg028.1st1K-grc1");
    expect(tr?.dublinCore?.dateCopyrighted).toBe(1837);
    expect(tr?.dublinCore?.creator).toEqual([{ lang: "en", value: "Pseudo-Aristotle" }]);
    expect(tr?.dublinCore?.publisher).toEqual([{ lang: "en", value: "Oxford University Press" }]);
    expect(tr?.dublinCore?.language).toEqual(["grc"]);

    const ctx2 = newContext([]);
    expect(await loadCtsFiles([join(capitains, "textgroup_with_structured.xml")], ctx2)).toEqual(["urn:cts:greekLit:stoa0033a"]);
    const group = ctx2.nodes.get("urn:cts:greekLit:stoa0033a");
    expect(group?.kind === "collection" && group.children).toEqual(["urn:cts:greekLit:stoa0033a.tlg028"]);
    expect(group?.extensions).toEqual({
      "scm:birthDate": ["-0384", "457BCE"],
      "scm:birthPlace": [{ lang: "fr", value: "Stagire" }, "https://pleiades.stoa.org/places/501625"],
    });
    expect(ctx2.nodes.get("urn:cts:greekLit:stoa0033a.tlg028")?.extensions?.["saws:cost"]).toEqual(["1.5"]);
    expect(ctx2.nodes.get("urn:cts:greekLit:stoa0033a.tlg028.1st1K-grc1")?.dublinCore?.dateCopyrighted).toBe(1837);
  });

  it("formulae-open: the Bessiaco tree, decoded entities, and the 12 missing sub-collections", async () => {
    const dir = join(shared, "formulae-open");
    const cat = await loadCatalog(dir);
    expect(collection(cat, "default").children).toEqual(["urn:cts:formulae:anjou_archives"]);
    expect(collection(cat, "urn:cts:formulae:anjou_archives").children).toEqual(["urn:cts:formulae:anjou_archives.marchegay_bessiaco"]);
    const bessiaco = collection(cat, "urn:cts:formulae:anjou_archives.marchegay_bessiaco");
    expect(bessiaco.title).toContain('<span class="collection-origin">Cartae de Bessiaco</span>');
    expect(bessiaco.children).toEqual([1, 2, 3, 4].map((n) => `urn:cts:formulae:anjou_archives.marchegay_bessiaco_000${n}`));
    const all = resources(cat);
    expect(all.map((r) => r.id)).toEqual([1, 2, 3, 4].map((n) => `urn:cts:formulae:anjou_archives.marchegay_bessiaco_000${n}.lat001`));
    expect(all.every((r) => existsSync(r.file))).toBe(true);
    const r2 = resource(cat, "urn:cts:formulae:anjou_archives.marchegay_bessiaco_0002.lat001");
    expect(r2.dublinCore?.language).toEqual(["la", "fr"]);
    expect(r2.dublinCore?.dateCopyrighted).toBe(1853);
    expect(r2.dublinCore?.source).toBeUndefined();
    expect(r2.extensions).toEqual({ "bib:editor": ["Paul Marchegay"] });
    const missing = cat.warnings.filter((w) => w.message.includes("file not found"));
    expect(missing.length).toBe(12);
    expect(missing.every((w) => w.file === join(dir, "data", "anjou_archives", "__capitains__.xml") && w.line)).toBe(true);
    expect(cat.warnings.length).toBe(12);
  });

  it("priapeia: structured Dublin Core and extensions", async () => {
    const cat = await loadCatalog(join(shared, "priapeia"));
    expect(resources(cat).map((r) => r.id)).toEqual([
      "urn:cts:latinLit:phi1103.phi001.lascivaroma-lat1",
      "urn:cts:latinLit:phi1103.phi001.lascivaroma-eng1",
      "urn:cts:latinLit:phi1103.phi001.lascivaroma-eng2",
    ]);
    const lat = resource(cat, "urn:cts:latinLit:phi1103.phi001.lascivaroma-lat1");
    expect(lat.title).toBe("Priapeia from Poeta Latini minores");
    expect(lat.dublinCore?.source).toEqual(["https://archive.org/details/poetaelatinimino12baeh2"]);
    expect(lat.dublinCore?.contributor).toEqual(["Thibault Clérice", "Aemilius Baehrens"]);
    expect(lat.dublinCore?.language).toEqual(["la"]);
    // `dc:author` is no Dublin Core term: read as `creator` (before, the textgroup's name stood in for it).
    expect(lat.dublinCore?.creator).toEqual(["Anonymous"]);
    expect(lat.dublinCore?.author).toBeUndefined();
    expect(lat.extensions).toEqual({
      "skos:prefLabel": [{ lang: "en", value: "Priapeia based on the edition of Aemilius Baehrens" }],
    });
    // The namespace of the prefix, as the file binds it, for JSON-LD to expand the key.
    expect(lat.vocabularies).toEqual({ skos: "http://www.w3.org/2004/02/skos/core#" });
    expect(collection(cat, "urn:cts:latinLit:phi1103").dublinCore?.creator).toEqual([
      { lang: "en", value: "Anonymous" },
      { lang: "fr", value: "Anonyme" },
    ]);
    expect(cat.warnings).toEqual([]);
  });
});
