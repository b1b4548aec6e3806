// A build never destroys a user's files: every command that writes a tree (build, serve
// --corpus, watch) refuses an output folder that is not a tree, empty or new, and one that is,
// holds or lies inside the corpus, before touching anything. Run over the real CLI on real
// folders, with SHA-256 snapshots of everything that must stay.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { EMBEDDED, PROJECT, snapshotTree } from "./helpers/tree.js";

const DTS = join(PROJECT, "bin/dts.js");
const root = mkdtempSync(join(tmpdir(), "dts-guard-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let work: string;
let n = 0;
beforeEach(() => {
  work = join(root, `case-${++n}`);
  mkdirSync(work);
  cpSync(EMBEDDED, join(work, "corpus"), { recursive: true });
  mkdirSync(join(work, "notes"));
  writeFileSync(join(work, "notes/important.txt"), "an editor's notes\n");
  writeFileSync(join(work, "README.txt"), "beside the corpus\n");
});

function dts(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [DTS, ...args], { cwd: work, encoding: "utf8", timeout: 20_000, env: { ...process.env, ...env } });
}

/** Runs a refused command and checks that nothing under the case folder changed. */
function expectRefused(args: string[], message: RegExp, env: Record<string, string> = {}) {
  const before = snapshotTree(work);
  const r = dts(args, env);
  expect(r.status, r.stdout).toBe(1);
  expect(r.stderr).toMatch(/refused, nothing was changed/);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  expect(snapshotTree(work)).toEqual(before); // folders included: none created, none removed
}

describe("an output folder a build did not make", () => {
  it("is refused when it holds a user's file, which stays", () => {
    expectRefused(
      ["build", "--out", "notes"],
      /notes was not made by dts build \(it holds important\.txt; no _tree\.json\).*Choose another output folder, or empty notes yourself/,
    );
  });

  it("is refused when it is the corpus", () => {
    expectRefused(["build", "--corpus", "corpus", "--out", "corpus"], /the output folder corpus is the corpus folder/);
  });

  it("is refused when it contains the corpus (the corpus's parent)", () => {
    expectRefused(["build", "--corpus", "corpus", "--out", "."], /the output folder \. contains the corpus corpus/);
    expectRefused(["build", "--corpus", join(work, "corpus"), "--out", work], /contains the corpus/);
  });

  it("is refused when it is inside the corpus", () => {
    expectRefused(["build", "--corpus", "corpus", "--out", "corpus/dist"], /the output folder corpus\/dist is inside the corpus corpus/);
    expect(existsSync(join(work, "corpus/dist"))).toBe(false);
  });

  it("is refused when it is a file", () => {
    expectRefused(["build", "--out", "notes/important.txt"], /the output folder notes\/important\.txt is a file/);
  });

  it("is refused through a symbolic link, and the link's target stays", () => {
    symlinkSync(join(work, "notes"), join(work, "link"));
    expectRefused(["build", "--out", "link"], /link was not made by dts build/);
    symlinkSync(join(work, "corpus"), join(work, "corpus-link"));
    expectRefused(["build", "--corpus", "corpus", "--out", "corpus-link"], /is the corpus folder/);
  });

  it("is refused when the corpus lies where the build's temporary folders go", () => {
    cpSync(join(work, "corpus"), join(work, "dist.old-1"), { recursive: true });
    expectRefused(["build", "--corpus", "dist.old-1", "--out", "dist"], /temporary folders a build of dist creates/);
  });

  it("is refused by serve --corpus and by watch as well", () => {
    expectRefused(["serve", "--corpus", "corpus", "--dist", "notes", "--port", "0"], /notes was not made by dts build/, {
      DTS_TOKEN: "0123456789abcdef0123",
    });
    expectRefused(["serve", "--corpus", "corpus", "--dist", "corpus", "--port", "0"], /is the corpus folder/);
    expectRefused(["watch", "--corpus", "corpus", "--out", "notes"], /notes was not made by dts build/);
    expectRefused(["watch", "--corpus", "corpus", "--out", "."], /contains the corpus/);
  });
});

describe("an output folder a build may write", () => {
  it("is new, empty, or a tree an earlier build made; rebuilding a tree replaces only it", () => {
    const corpus = snapshotTree(join(work, "corpus"));
    expect(dts(["build", "--out", "dist"]).status).toBe(0); // new
    mkdirSync(join(work, "empty"));
    expect(dts(["build", "--out", "empty"]).status).toBe(0); // empty
    expect(existsSync(join(work, "empty/_tree.json"))).toBe(true);
    const full = dts(["build", "--out", "dist", "--full"]); // a tree: replaced wholesale
    expect(full.status, full.stderr).toBe(0);
    const other = dts(["build", "--out", "dist", "--page-size", "3"]); // other settings: a new tree swapped in
    expect(other.status, other.stderr).toBe(0);
    expect(snapshotTree(join(work, "corpus"))).toEqual(corpus);
    expect(readdirSync(work).sort()).toEqual(["README.txt", "corpus", "dist", "empty", "notes"]);
  });

  it("removes the staging folder a killed build left, and nothing else named like it", () => {
    expect(dts(["build", "--out", "dist"]).status).toBe(0);
    // A killed build's staging folder (its record is written first; pid 2^22+1 is never alive here).
    cpSync(join(work, "dist"), join(work, "dist.building-4194305"), { recursive: true });
    // A user's folder that happens to be named like one is left alone.
    mkdirSync(join(work, "dist.old-4194306"));
    writeFileSync(join(work, "dist.old-4194306/mine.txt"), "mine\n");
    expect(dts(["build", "--out", "dist", "--full"]).status).toBe(0);
    expect(readdirSync(work).sort()).toEqual(["README.txt", "corpus", "dist", "dist.old-4194306", "notes"]);
  });
});
