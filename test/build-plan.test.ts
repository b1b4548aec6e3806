// The one decision of how a document's part of the tree is brought up to date (builder/build/
// plan.ts): each reason from the facts alone, and the reasons an incremental build reports for
// real edits of the embedded corpus, over the CLI.

import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planDocument } from "../builder/build/plan.js";
import { indexDocument } from "../builder/citation/indexer.js";
import { CAESAR_FILE, CATULLUS_FILE } from "./helpers/embedded.js";
import { EMBEDDED, PROJECT } from "./helpers/tree.js";

const tei = (lines: string[]): Uint8Array =>
  new TextEncoder().encode(
    `<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><div type="edition">${lines.map((l, i) => `<l n="${i + 1}">${l}</l>`).join("")}</div></body></text></TEI>`,
  );
const index = (lines: string[]) => indexDocument(tei(lines)).index;

describe("planDocument", () => {
  const record = { hash: "h1", hasText: true };
  const old = index(["arma", "virum"]);

  it("keeps a document whose source is the one the tree was built from", () => {
    expect(planDocument({ hash: "h1", record })).toEqual({ mode: "unchanged", reason: "source unchanged" });
    expect(planDocument({ hash: "", record: { hash: "", hasText: false } })).toEqual({ mode: "unchanged", reason: "source unchanged" });
  });

  it("rewrites only passages when the citation structure is the same", () => {
    expect(planDocument({ hash: "h2", record, oldIndex: old, newIndex: index(["ARMA", "virum cano"]) })).toEqual({
      mode: "passages",
      reason: "passages changed",
    });
  });

  it("renders the whole document, saying why, in every other case", () => {
    const reason = (f: Parameters<typeof planDocument>[0]): string => {
      const plan = planDocument(f);
      expect(plan.mode).toBe("document");
      return plan.reason;
    };
    expect(reason({ hash: "", record })).toBe("source missing");
    expect(reason({ hash: "h2", record: null })).toBe("new document");
    expect(reason({ hash: "h2", record: { hash: "", hasText: false } })).toBe("had no text");
    expect(reason({ hash: "h2", record, oldIndex: null, newIndex: old })).toBe("earlier output unusable");
    expect(reason({ hash: "h2", record, oldIndex: old, newIndex: null })).toBe("not well-formed");
    expect(reason({ hash: "h2", record, oldIndex: old, newIndex: index(["arma", "virum", "cano"]) })).toBe("citation structure changed");
  });
});

describe("dts build reports why each document was written", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "dts-plan-"));
    cpSync(EMBEDDED, join(work, "corpus"), { recursive: true });
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const dts = (...args: string[]) => {
    const r = spawnSync(
      process.execPath,
      [join(PROJECT, "bin/dts.js"), "build", "--corpus", join(work, "corpus"), "--out", join(work, "dist"), ...args],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };
  const edit = (file: string, from: string | RegExp, to: string): void => {
    const path = join(work, "corpus", file);
    const before = readFileSync(path, "utf8");
    const after = before.replace(from, to);
    expect(after).not.toBe(before);
    writeFileSync(path, after);
  };

  it("full build, then: a changed line, a new line, untouched documents", () => {
    expect(JSON.parse(dts("--json")).reasons).toEqual({ "full build": 6 });
    edit(CATULLUS_FILE, "rumoresque", "RUMORESQUE");
    edit(
      CAESAR_FILE,
      '<div type="textpart" subtype="section" n="1">',
      '<div type="textpart" subtype="section" n="0"><p>inserted</p></div><div type="textpart" subtype="section" n="1">',
    );
    const report = JSON.parse(dts("--json"));
    expect(report.reasons).toEqual({ "source unchanged": 4, "passages changed": 1, "citation structure changed": 1 });
    edit(CATULLUS_FILE, "RUMORESQUE", "<broken");
    expect(dts()).toMatch(/rebuilt {4}1 \(1 not well-formed\)/);
  });
});
