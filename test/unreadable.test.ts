// A TEI file that exists but is not well-formed XML: GET says so (the corpus-relative file, the
// line and column of the error) with 409, not "no text yet, POST creates it"; the POST of a
// first text agrees and leaves the file as it is.

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusName } from "../builder/build/document-output.js";
import { CATULLUS, CATULLUS_FILE, doc, nav } from "./helpers/embedded.js";
import { errorOf, TEI_NS, type WriteTree, writeTree } from "./helpers/write-server.js";

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

let t: WriteTree;
let before: string;
beforeAll(async () => {
  t = await writeTree({
    // `</body>` on line 66 loses its y: the file is there, and broken at line 66.
    prepare: (corpus) =>
      writeFileSync(join(corpus, CATULLUS_FILE), readFileSync(join(corpus, CATULLUS_FILE), "utf8").replace("</body>", "</bod>")),
  });
  before = sha(t.file(CATULLUS_FILE));
});
afterAll(async () => {
  await t?.close();
});

/** What every answer about the document must say, and must not. */
function expectTruth(description: string): void {
  expect(description).toContain(
    `The document "${CATULLUS}" has a TEI file, ${CATULLUS_FILE}, but it is not well-formed XML (line 66, column `,
  );
  expect(description).not.toMatch(/has not been written|no text yet/);
  expect(description).not.toContain(t.work);
}

describe("a TEI file that is not well-formed XML", () => {
  it("Document GET answers 409 naming the file, line and column", async () => {
    const r = await t.fetch(doc(CATULLUS));
    expect(r.status).toBe(409);
    expectTruth((await errorOf(r)).description);
  });

  it("the Hydra documentation lists 409 among Document GET's statuses", async () => {
    const docs = await (await t.fetch("/api/dts/docs")).json();
    const get = docs.supportedOperations.find((o: { method: string }) => o.method === "GET");
    expect(get.possibleStatus.map((s: { statusCode: number }) => s.statusCode)).toContain(409);
  });

  it("Navigation answers 409 the same, stored (down=1) or computed (down=2)", async () => {
    for (const params of ["&down=1", "&down=2", "&ref=1"]) {
      const r = await t.fetch(nav(CATULLUS, params));
      expect(r.status, params).toBe(409);
      const body = await r.json();
      expect(body["@type"]).toBe("Status");
      expectTruth(body.description);
    }
  });

  it("a POST of a first text answers 409 saying the same, and leaves the file untouched", async () => {
    const r = await t.write("POST", doc(CATULLUS), `<TEI xmlns="${TEI_NS}"><text><body><p n="1">x</p></body></text></TEI>`);
    expect(r.status).toBe(409);
    expectTruth((await errorOf(r)).description);
    expect(sha(t.file(CATULLUS_FILE))).toBe(before);
  });

  it("the build behind the server warned with the file, line and column", () => {
    const w = t.server.report!.warnings.find((w) => w.file.endsWith(CATULLUS_FILE));
    expect(w).toMatchObject({ line: 66, message: expect.stringMatching(/not well-formed XML .*409/) });
  });
});

describe("the file name public answers give", () => {
  it("is the path inside the corpus, and of a file outside it only its name, never the machine's folders", () => {
    expect(corpusName("/srv/corpus", "/srv/corpus/data/a/b.xml")).toBe("data/a/b.xml");
    expect(corpusName("/srv/corpus", "/home/me/secret/b.xml")).toBe("b.xml");
  });
});
