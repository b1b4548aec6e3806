// Schema validation of writes: the whole resulting document is validated (RELAX NG, libxml2)
// before anything is written; a failure is 422 with the validator's line and message.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATULLUS, CATULLUS_FILE, doc } from "./helpers/embedded.js";
import { EMBEDDED, PROJECT } from "./helpers/tree.js";
import { errorOf, fragment, type WriteTree, writeTree } from "./helpers/write-server.js";

/** The shape of the sample poems: lines of text only, in line groups, in divisions. */
const SMALL_RNG = `<?xml version="1.0" encoding="UTF-8"?>
<grammar xmlns="http://relaxng.org/ns/structure/1.0" ns="http://www.tei-c.org/ns/1.0">
  <start>
    <element name="TEI">
      <ref name="attributes"/>
      <element name="teiHeader"><ref name="anything"/></element>
      <element name="text"><ref name="attributes"/>
        <element name="body"><ref name="attributes"/>
          <oneOrMore><element name="div"><ref name="attributes"/>
            <optional><element name="head"><text/></element></optional>
            <oneOrMore><element name="lg"><ref name="attributes"/>
              <oneOrMore><element name="l"><ref name="attributes"/><text/></element></oneOrMore>
            </element></oneOrMore>
          </element></oneOrMore>
        </element>
      </element>
    </element>
  </start>
  <define name="attributes"><zeroOrMore><attribute><anyName/></attribute></zeroOrMore></define>
  <define name="anything">
    <ref name="attributes"/>
    <zeroOrMore><choice><text/><element><anyName/><ref name="anything"/></element></choice></zeroOrMore>
  </define>
</grammar>
`;

describe("--schema", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree({ schemaText: SMALL_RNG, waitForSchema: true });
  });
  afterAll(async () => t?.close());

  it("accepts a change that keeps the document valid", async () => {
    const r = await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(`<l n="2">rumoresque senum severiorum!</l>`));
    expect(r.status).toBe(200);
  });

  it("422 with the line in the document and in the body, and the validator's message; nothing written", async () => {
    const before = t.file(CATULLUS_FILE);
    const r = await t.write("PUT", doc(CATULLUS, "&ref=3"), fragment(`<l n="3">omnes <hi>unius</hi> aestimemus assis!</l>`));
    const { status, description } = await errorOf(r);
    expect(status).toBe(422);
    const line = before.split("\n").findIndex((l) => l.includes(`<l n="3">`)) + 1;
    expect(description).toContain(`line ${line}`);
    expect(description).toContain("line 2 of the submitted body");
    expect(description).toMatch(/schema\.rng/);
    expect(description).toMatch(/Did not expect element hi there/);
    expect(description).toContain("/api/dts/docs/writes#schema");
    expect(t.file(CATULLUS_FILE)).toBe(before);
  });

  it("validates inserted passages too", async () => {
    const r = await t.write("POST", doc(CATULLUS, "&after=13"), fragment(`<l n="14">bad <b>line</b></l>`));
    expect(r.status).toBe(422);
    expect(t.file(CATULLUS_FILE)).not.toContain(`n="14"`);
  });
});

describe("a document's own xml-model schema", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree({
      prepare: (corpus) => {
        writeFileSync(join(corpus, "latin/lines.rng"), SMALL_RNG);
        const file = join(corpus, CATULLUS_FILE);
        const text = readFileSync(file, "utf8").replace(
          `<?xml version="1.0" encoding="UTF-8"?>\n`,
          `<?xml version="1.0" encoding="UTF-8"?>\n<?xml-model href="lines.rng" schematypens="http://relaxng.org/ns/structure/1.0"?>\n`,
        );
        writeFileSync(file, text);
      },
    });
  });
  afterAll(async () => t?.close());

  it("is used when it is a local file", async () => {
    const r = await t.write("PUT", doc(CATULLUS, "&ref=3"), fragment(`<l n="3">omnes <hi>unius</hi> aestimemus assis!</l>`));
    const { status, description } = await errorOf(r);
    expect(status).toBe(422);
    expect(description).toMatch(/lines\.rng/);
    expect((await t.write("PUT", doc(CATULLUS, "&ref=3"), fragment(`<l n="3">omnes unius aestimemus assis.</l>`))).status).toBe(200);
  });
});

const TEI_ALL = resolve(PROJECT, "../shared/schemas/tei_all.rng");

describe.skipIf(!existsSync(TEI_ALL))("tei_all.rng (compiled once, about 18 s)", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree({ schema: TEI_ALL, waitForSchema: true });
  }, 180_000);
  afterAll(async () => t?.close());

  it("accepts a valid TEI line and refuses an element TEI does not have, with libxml2's message", async () => {
    expect(readFileSync(join(EMBEDDED, CATULLUS_FILE), "utf8")).toContain(`<l n="2">`);
    const ok = await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(`<l n="2">rumoresque <hi rend="italic">senum</hi> severiorum</l>`));
    expect(ok.status).toBe(200);
    const started = performance.now();
    const bad = await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(`<l n="2">rumoresque <foo>senum</foo> severiorum</l>`));
    const { status, description } = await errorOf(bad);
    expect(status).toBe(422);
    expect(description).toMatch(/tei_all\.rng/);
    expect(description).toMatch(/foo/);
    // The schema was compiled once, at the start: a validation takes milliseconds.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(t.file(CATULLUS_FILE)).toContain(`<hi rend="italic">senum</hi>`);
  }, 60_000);
});
