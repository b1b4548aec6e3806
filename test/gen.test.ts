// The synthetic corpus generator of the benchmark (bench/gen.ts): deterministic, and a corpus that
// `dts build` reads with exactly the requested documents and passages and no warnings.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus, MARKER, mulberry32 } from "../bench/gen.js";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "dts-gen-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every file under `dir`, by relative path, with its bytes. */
function snapshot(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe("mulberry32", () => {
  it("gives the same sequence for the same seed, in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });
});

describe("generateCorpus", () => {
  it("writes the same bytes for the same options, and others for another seed", () => {
    const a = generateCorpus({ docs: 30, passages: 4000, out: join(work, "a"), seed: 7 });
    const b = generateCorpus({ docs: 30, passages: 4000, out: join(work, "b"), seed: 7 });
    const c = generateCorpus({ docs: 30, passages: 4000, out: join(work, "c"), seed: 8 });
    const sa = snapshot(a.out);
    const sb = snapshot(b.out);
    expect([...sb.keys()].sort()).toEqual([...sa.keys()].sort());
    for (const [path, bytes] of sa) expect(bytes.equals(sb.get(path)!), path).toBe(true);
    expect({ ...a, out: "", seconds: 0 }).toEqual({ ...b, out: "", seconds: 0 });
    const sc = snapshot(c.out);
    const tei = [...sa.keys()].find((p) => p.endsWith("-lat1.xml"))!;
    expect(sc.get(tei)?.equals(sa.get(tei)!) ?? false).toBe(false);
  });

  it("writes a CapiTainS layout with CTS citation patterns listed deepest first", () => {
    const r = generateCorpus({ docs: 40, passages: 6000, out: join(work, "layout"), seed: 3 });
    expect(r.files).toBe(r.documents + r.works + r.textgroups);
    expect(r.depths.slice(1).reduce((x, y) => x + y, 0)).toBe(40);
    expect(r.depths.slice(1).every((n) => n > 0)).toBe(true); // 1 to 4 levels all occur
    const files = [...snapshot(r.out).keys()];
    expect(files.filter((f) => f.endsWith("__cts__.xml"))).toHaveLength(r.works + r.textgroups);
    const tg = readFileSync(join(r.out, "data/syn0001/__cts__.xml"), "utf8");
    expect(tg).toContain('<ti:textgroup xmlns:ti="http://chs.harvard.edu/xmlns/cts" urn="urn:cts:synthLit:syn0001">');
    const teiPath = files.find((f) => /-lat1\.xml$/.test(f))!;
    const tei = readFileSync(join(r.out, teiPath), "utf8");
    expect(tei).toContain('<TEI xmlns="http://www.tei-c.org/ns/1.0">');
    expect(tei).toContain('<refsDecl n="CTS">');
    const levels = [...tei.matchAll(/matchPattern="([^"]+)"/g)].map((m) => m[1].split(".").length);
    expect(levels).toEqual([...levels].sort((x, y) => y - x));
    expect(levels.at(-1)).toBe(1);
    // Leaves hold realistic amounts of text.
    const leaves = [...tei.matchAll(/<(l|p)\b[^>]*>([^<]*)</g)].map((m) => m[2].length);
    expect(leaves.length).toBeGreaterThan(0);
    expect(Math.max(...leaves)).toBeLessThan(700);
  });

  it("refuses to overwrite a folder it did not write, and replaces one it did", () => {
    const other = join(work, "other");
    mkdirSync(other);
    writeFileSync(join(other, "keep.txt"), "mine");
    expect(() => generateCorpus({ docs: 1, passages: 1, out: other })).toThrow(/not written by this generator/);
    expect(readFileSync(join(other, "keep.txt"), "utf8")).toBe("mine");
    const mine = join(work, "mine");
    generateCorpus({ docs: 5, passages: 50, out: mine });
    generateCorpus({ docs: 2, passages: 9, out: mine });
    expect(JSON.parse(readFileSync(join(mine, MARKER), "utf8"))).toMatchObject({ docs: 2, passages: 9 });
  });

  it("rejects fewer passages than documents", () => {
    expect(() => generateCorpus({ docs: 10, passages: 9, out: join(work, "bad") })).toThrow(/--passages/);
  });
});

describe("a generated corpus builds", () => {
  const cases = [
    { docs: 1, passages: 1, seed: 1 },
    { docs: 6, passages: 6, seed: 2 },
    { docs: 12, passages: 2500, seed: 5 },
    { docs: 25, passages: 7000, seed: 11 },
  ];
  for (const c of cases) {
    it(`with ${c.docs} documents and ${c.passages} passages (seed ${c.seed}), no warnings`, async () => {
      const corpus = join(work, `build-${c.docs}-${c.passages}`);
      const gen = generateCorpus({ ...c, out: corpus });
      const report = await build({ corpus, out: `${corpus}-tree`, site: makeSite() });
      expect(report.warnings).toEqual([]);
      expect(report.documents).toBe(c.docs);
      expect(report.withoutText).toBe(0);
      expect(report.passages).toBe(c.passages);
      expect(gen.passages).toBe(c.passages);
    });
  }
});
