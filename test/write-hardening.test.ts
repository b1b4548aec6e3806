// Issue 8, write side: schemas a body names, deep nesting, and writes that would break the
// citation structure or leave the TEI namespace. Every case is a real request to a real server
// over a copy of the embedded corpus; each refusal must leave the file as it was.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { CATULLUS, CATULLUS_FILE, doc, LIVY, LIVY_FILE } from "./helpers/embedded.js";
import { EMBEDDED } from "./helpers/tree.js";
import { errorOf, fragment, TEI_NS, type WriteTree, writeTree } from "./helpers/write-server.js";

const RNG = `<?xml version="1.0"?>
<grammar xmlns="http://relaxng.org/ns/structure/1.0"><start><element><anyName/><ref name="any"/></element></start>
<define name="any"><zeroOrMore><choice><attribute><anyName/></attribute><text/><element><anyName/><ref name="any"/></element></choice></zeroOrMore></define></grammar>
`;

/** A first text for Livy whose prolog names `href` as its RELAX NG schema. */
const livyWith = (href: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<?xml-model href="${href}" schematypens="http://relaxng.org/ns/structure/1.0"?>\n` +
  `<TEI xmlns="${TEI_NS}"><teiHeader><fileDesc><titleStmt><title>Livy</title></titleStmt><publicationStmt><p/></publicationStmt><sourceDesc><p/></sourceDesc></fileDesc></teiHeader>` +
  `<text><body><div type="edition"><div type="textpart" n="1"><p n="1">Iam primum omnium.</p></div></div></body></text></TEI>\n`;

async function expectRefused(t: WriteTree, r: Response, status: number, ...words: (string | RegExp)[]): Promise<string> {
  const { status: got, description, body } = await errorOf(r);
  expect(got, description).toBe(status);
  for (const w of words) expect(description).toMatch(w);
  // Never a server path.
  expect(body).not.toContain(t.work);
  return description;
}

describe("schemas named by a body's xml-model", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree({
      prepare: (corpus) => {
        writeFileSync(join(corpus, "latin/any.rng"), RNG);
        writeFileSync(join(corpus, "../outside.rng"), RNG);
        symlinkSync("/dev/zero", join(corpus, "latin/zero.rng"));
      },
    });
  });
  afterAll(async () => t?.close());

  const exists = (): boolean => {
    try {
      t.file(LIVY_FILE);
      return true;
    } catch {
      return false;
    }
  };

  it("/dev/zero, named or linked from the corpus: refused (422), the server stays up", async () => {
    await expectRefused(t, await t.write("POST", doc(LIVY), livyWith("/dev/zero")), 422, /outside the corpus/, /#schema-sources/);
    await expectRefused(t, await t.write("POST", doc(LIVY), livyWith("zero.rng")), 422, /latin\/zero\.rng/, /not a regular file/);
    expect(exists()).toBe(false);
    expect((await t.fetch(doc(CATULLUS, "&ref=1"))).status).toBe(200);
  });

  it("/etc/passwd and a file outside the corpus: refused (422, outside the allowed folders)", async () => {
    await expectRefused(t, await t.write("POST", doc(LIVY), livyWith("/etc/passwd")), 422, /outside the corpus/);
    await expectRefused(t, await t.write("POST", doc(LIVY), livyWith("../../outside.rng")), 422, /outside the corpus/);
    await expectRefused(t, await t.write("POST", doc(LIVY), livyWith("file:///etc/passwd")), 422, /outside the corpus/);
    expect(exists()).toBe(false);
  });

  it("a file of the corpus that is no schema: 422 naming it relative to the corpus, no server path", async () => {
    await expectRefused(
      t,
      await t.write("POST", doc(LIVY), livyWith("../greek/odyssey.xml")),
      422,
      /greek\/odyssey\.xml/,
      /not a RELAX NG schema/,
    );
    expect(exists()).toBe(false);
  });

  it("a missing schema: 422 naming it, not an unvalidated 201", async () => {
    await expectRefused(t, await t.write("POST", doc(LIVY), livyWith("missing.rng")), 422, /latin\/missing\.rng/, /does not exist/);
    expect(exists()).toBe(false);
  });

  it("a schema inside the corpus is used", async () => {
    const r = await t.write("POST", doc(LIVY), livyWith("any.rng"));
    expect(r.status).toBe(201);
  });
});

describe("--schema-dir", () => {
  it("allows schemas from a folder outside the corpus", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dts-schemas-"));
    writeFileSync(join(dir, "any.rng"), RNG);
    const t = await writeTree({ schemaDirs: [dir] });
    try {
      expect((await t.write("POST", doc(LIVY), livyWith(`file://${dir}/any.rng`))).status).toBe(201);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("writes that would break the citation structure or leave TEI", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree();
  });
  afterAll(async () => t?.close());

  const unchanged = async (r: Response, status: number, ...words: (string | RegExp)[]): Promise<string> => {
    const before = t.file(CATULLUS_FILE);
    const d = await expectRefused(t, r, status, ...words);
    expect(t.file(CATULLUS_FILE)).toBe(before);
    return d;
  };

  it('PUT <l xmlns="" n="5">: 400, the line would leave the TEI namespace', async () => {
    await unchanged(
      await t.write("PUT", doc(CATULLUS, "&ref=5"), fragment(`<l xmlns="" n="5">x</l>`)),
      400,
      /namespace/,
      /line 2, column \d+/,
    );
  });

  it('PUT <p n="5"> over an <l>: 400, another element kind', async () => {
    await unchanged(await t.write("PUT", doc(CATULLUS, "&ref=5"), fragment(`<p n="5">x</p>`)), 400, /<p>/, /<l>/, /line 2, column \d+/);
  });

  it("PUT of an <l> inside an <l>: 400", async () => {
    await unchanged(
      await t.write("PUT", doc(CATULLUS, "&ref=5"), fragment(`<l n="5">a <l>b</l></l>`)),
      400,
      /inside/,
      /line 2, column \d+/,
    );
    await unchanged(await t.write("PUT", doc(CATULLUS, "&ref=5"), fragment(`<l n="5">a <l n="6">b</l></l>`)), 400, /ref="5"/);
  });

  it("POST @n values with the delimiter, path segments or control characters: 400 naming the value", async () => {
    for (const n of ["13.1", "12.5", "..", "../../etc/passwd", "a&#10;b", "a/b"]) {
      const d = await unchanged(
        await t.write("POST", doc(CATULLUS, "&after=13"), fragment(`<l n="${n}">x</l>`)),
        400,
        /line 2, column \d+/,
      );
      expect(d).toMatch(/@n/);
    }
  });

  it('POST <div n="9"> at line level: 400 wrong level, not 409', async () => {
    await unchanged(await t.write("POST", doc(CATULLUS, "&after=5"), fragment(`<div n="9">x</div>`)), 400, /level/, /<div>/);
  });

  it("XInclude in a body: 400, outside content is not accepted", async () => {
    const xi = `<l n="5"><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/></l>`;
    await unchanged(await t.write("PUT", doc(CATULLUS, "&ref=5"), fragment(xi)), 400, /XInclude/);
  });

  it("the write rules page has the sections these errors name", async () => {
    const page = await (await t.fetch("/api/dts/docs/writes")).text();
    for (const id of ["schema-sources", "structure", "outside-content", "depth"]) expect(page).toContain(`<section id="${id}">`);
  });

  it("an ordinary edit still passes", async () => {
    expect((await t.write("PUT", doc(CATULLUS, "&ref=5"), fragment(`<l n="5">nobis cum semel occidit brevis lux</l>`))).status).toBe(200);
    expect((await t.write("POST", doc(CATULLUS, "&after=13"), fragment(`<l n="13a">versus novus</l>`))).status).toBe(201);
  });
});

describe("deep nesting", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree();
  });
  afterAll(async () => t?.close());

  const deep = (levels: number, closed: boolean): string =>
    fragment(`<l n="5">${"<a>".repeat(levels)}x${closed ? "</a>".repeat(levels) : ""}</l>`)
      .replace(/<a>/g, `<hi>`)
      .replace(/<\/a>/g, "</hi>");

  const timed = async (body: string): Promise<{ ms: number; status: number; description: string }> => {
    const started = performance.now();
    const r = await t.write("PUT", doc(CATULLUS, "&ref=5"), body);
    const { status, description } = await errorOf(r);
    return { ms: performance.now() - started, status, description };
  };

  it("refuses more than 256 levels (422, naming the limit and the line), in linear time", async () => {
    const before = t.file(CATULLUS_FILE);
    await timed(deep(1000, false)); // warm up
    const small = await timed(deep(20_000, false));
    const large = await timed(deep(40_000, false));
    for (const r of [small, large]) {
      expect(r.status).toBe(422);
      expect(r.description).toMatch(/256 levels/);
      expect(r.description).toMatch(/line 2/);
    }
    const closed = await timed(deep(40_000, true));
    expect(closed.status).toBe(422);
    expect(large.ms).toBeLessThan(1000);
    expect(closed.ms).toBeLessThan(1000);
    // Linear: twice the opens, not four times the time (with a wide margin on a busy machine).
    expect(large.ms).toBeLessThan(small.ms * 3 + 50);
    expect(t.file(CATULLUS_FILE)).toBe(before);
  });

  it("a passage nested 240 levels deep is accepted", async () => {
    expect((await timed(deep(240, true))).status).toBe(200);
  });

  it("a 4 MiB body of ordinary TEI is parsed in well under a second", async () => {
    const line = `<l n="5">${'nobis cum semel occidit brevis lux, <hi rend="it">nox</hi> est perpetua. '.repeat(4)}</l>`;
    const words = `<seg>${'nobis cum semel occidit brevis lux, <hi rend="it">nox</hi> est perpetua una dormienda. '.repeat(40)}</seg>\n`;
    const inner = words.repeat(Math.floor((4 * 1024 * 1024 - 2000) / words.length));
    const body = fragment(line.replace("</l>", `${inner}</l>`));
    expect(body.length).toBeGreaterThan(3.9 * 1024 * 1024);
    const r = await timed(body);
    expect(r.status, r.description).toBe(200);
    expect(r.ms).toBeLessThan(1500);
  });
});

describe("deep nesting in a corpus file", () => {
  it("the build warns (naming the limit and the line) and goes on, instead of hanging", async () => {
    const work = mkdtempSync(join(tmpdir(), "dts-deep-"));
    try {
      const corpus = join(work, "corpus");
      cpSync(EMBEDDED, corpus, { recursive: true });
      const file = join(corpus, CATULLUS_FILE);
      const levels = 100_000;
      writeFileSync(file, readFileSync(file, "utf8").replace(`<l n="5">`, `<l n="5">${"<hi>".repeat(levels)}x${"</hi>".repeat(levels)}`));
      const started = performance.now();
      const report = await build({ corpus, out: join(work, "dist"), site: makeSite() });
      expect(performance.now() - started).toBeLessThan(10_000);
      const warning = report.warnings.find((w) => w.file.endsWith("catullus-5.xml"));
      expect(warning?.message).toMatch(/256 levels/);
      expect(warning?.line).toBeGreaterThan(40);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("a rebuild after a crash", () => {
  it("removes the temporary file a killed rebuild left in the document's folder", async () => {
    const work = mkdtempSync(join(tmpdir(), "dts-crash-"));
    try {
      const corpus = join(work, "corpus");
      const dist = join(work, "dist");
      cpSync(EMBEDDED, corpus, { recursive: true });
      await build({ corpus, out: dist, site: makeSite() });
      // Killed while writing the new whole document: the temporary file, and a source the tree does not match.
      const folder = join(dist, "document", readdirSync(join(dist, "document")).find((f) => f.includes("phi0472.phi005"))!);
      writeFileSync(join(folder, "_.xml.tmp-4242-0"), "");
      const file = join(corpus, CATULLUS_FILE);
      writeFileSync(file, readFileSync(file, "utf8").replace("Vivamus, mea Lesbia", "Vivamus, mea Lesbia!"));
      await build({ corpus, out: dist, site: makeSite() });
      expect(readdirSync(folder).filter((f) => f.includes(".tmp-"))).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
