// Render workers have a capped heap (document-pool.ts): a document too large for it is rendered
// on the main thread instead, said in a warning, and the tree is the same as a build without
// workers. Workers run compiled JavaScript, so the capped build runs in a child process.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { EMBEDDED, PROJECT } from "./helpers/tree.js";

/** A TEI file of `books` books of `lines` lines each: some 3 MB for 40 x 1,000. */
function bigTei(books: number, lines: number): string {
  const body: string[] = [];
  for (let b = 1; b <= books; b++) {
    body.push(`<div type="textpart" subtype="book" n="${b}">`);
    for (let l = 1; l <= lines; l++) body.push(`<l n="${l}">versus ${b}.${l} longior aliquantum ut textus sit satis magnus</l>`);
    body.push("</div>");
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>Magnum</title></titleStmt><publicationStmt><p>x</p></publicationStmt><sourceDesc><p>x</p></sourceDesc></fileDesc></teiHeader>
<text><body><div type="edition">${body.join("\n")}</div></body></text></TEI>
`;
}

/** Every file of a tree and its bytes, but the generation stamp (it differs between builds by design). */
function treeFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name !== "_generation") out.set(relative(root, path), readFileSync(path).toString("base64"));
    }
  };
  walk(root);
  return out;
}

describe("render workers with a capped heap", () => {
  let work: string;
  let corpus: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "dts-heap-"));
    corpus = join(work, "corpus");
    cpSync(EMBEDDED, corpus, { recursive: true });
    mkdirSync(join(corpus, "big"));
    writeFileSync(join(corpus, "big", "magnum.xml"), bigTei(40, 1000));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("renders a document too large for a worker's heap on the main thread, with a warning, and builds the same tree", async () => {
    const site = makeSite();
    const here = join(work, "here");
    await build({ corpus, out: here, site, workers: 0 });
    const capped = join(work, "capped");
    const script = `
      const { build } = await import(${JSON.stringify(join(PROJECT, "out/builder/build/build.js"))});
      const { makeSite } = await import(${JSON.stringify(join(PROJECT, "out/builder/site.js"))});
      const r = await build({ corpus: process.argv[2], out: process.argv[3], site: makeSite(), workers: 1, workerHeapMb: 16 });
      console.log(JSON.stringify(r.warnings));`;
    const file = join(work, "capped-build.mjs");
    writeFileSync(file, script);
    const warnings = JSON.parse(execFileSync(process.execPath, [file, corpus, capped], { encoding: "utf8", timeout: 120_000 })) as {
      file: string;
      message: string;
    }[];
    const heavy = warnings.filter((w) => w.message.includes("rendered on the main thread"));
    expect(heavy.map((w) => w.file)).toContain("big/magnum.xml");
    expect(heavy[0].message).toContain("16 MB");
    const a = treeFiles(here);
    const b = treeFiles(capped);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [path, bytes] of a) expect(b.get(path), path).toBe(bytes);
  }, 180_000);
});
