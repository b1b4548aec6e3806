// Error bodies stay well-formed whatever a request echoes: characters XML 1.0 forbids (C0
// controls but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF) never reach a body raw, in the
// XML errors of the Document endpoint nor in the Hydra JSON of the others.

import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coll, documentPath, GEORGICS, navigationPath } from "./helpers/embedded.js";
import { EMBEDDED, type ServedTree, serveCorpus } from "./helpers/tree.js";

const FORBIDDEN = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Percent-encoded as a client sends them (lone surrogates as their WTF-8 bytes, decoded to U+FFFD
// by URLSearchParams, are covered by the unit check below).
const VALUES = ["%01", "a%00b", "x%1Fy", "%EF%BF%BE", "%EF%BF%BF", "%0B%0C", "%7F%08z"];

let tree: ServedTree;
beforeAll(async () => {
  tree = await serveCorpus(EMBEDDED);
});
afterAll(async () => {
  await tree?.close();
});

describe("error bodies with forbidden characters in echoed values", () => {
  it("are well-formed XML on the Document endpoint, and still show the value", async () => {
    for (const v of VALUES) {
      for (const path of [documentPath(`id=${v}`), documentPath(`id=${GEORGICS}&ref=${v}`), documentPath(`id=${GEORGICS}&format=${v}`)]) {
        const r = await tree.fetch(path);
        expect(r.status, path).toBeGreaterThanOrEqual(400);
        expect(r.status, path).toBeLessThan(500);
        const body = await r.text();
        expect(FORBIDDEN.test(body), `${path}: ${JSON.stringify(body)}`).toBe(false);
        expect(XMLValidator.validate(body), path).toBe(true);
      }
    }
    const body = await (await tree.fetch("/api/dts/document?id=a%01b")).text();
    expect(body).toContain('"a\\u0001b"');
  });

  it("carry no forbidden character in the Hydra JSON of the Collection and Navigation endpoints", async () => {
    for (const v of VALUES) {
      for (const path of [
        coll(`?id=${v}`),
        coll(`?nav=${v}`),
        navigationPath(`id=${v}`),
        navigationPath(`id=${GEORGICS}&ref=${v}`),
        navigationPath(`id=x&down=${v}`),
      ]) {
        const r = await tree.fetch(path);
        expect(r.status, path).toBeGreaterThanOrEqual(400);
        expect(r.status, path).toBeLessThan(500);
        const status = JSON.parse(await r.text()) as { description: string; title: string };
        expect(FORBIDDEN.test(status.description + status.title), `${path}: ${JSON.stringify(status)}`).toBe(false);
      }
    }
    const status = JSON.parse(await (await tree.fetch("/api/dts/collection?id=a%01b")).text()) as { description: string };
    expect(status.description).toContain('"a\\u0001b"');
  });
});
