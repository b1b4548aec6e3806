// The `dts` command as users run it: the compiled CLI in a child process.

import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED, PROJECT } from "./helpers/tree.js";

const DTS = join(PROJECT, "bin/dts.js");
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "dts-cli-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function dts(args: string[], cwd = work) {
  return spawnSync(process.execPath, [DTS, ...args], { cwd, encoding: "utf8" });
}

const TEI = (body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>T</title></titleStmt></fileDesc></teiHeader>\n<text><body>${body}</body></text></TEI>\n`;

describe("dts build", () => {
  it("builds corpus/ into dist/ by default and prints a report", () => {
    const cwd = join(work, "defaults");
    mkdirSync(cwd);
    cpSync(EMBEDDED, join(cwd, "corpus"), { recursive: true });
    const r = dts(["build"], cwd);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Built dist from corpus in [\d.]+ s/);
    expect(r.stdout).toMatch(/documents\s+6 \(1 without text\)/);
    expect(r.stdout).toMatch(/passages\s+75/);
    expect(r.stdout).toMatch(/files\s+\d+/);
    expect(r.stdout).toMatch(/warnings\s+0/);
    expect(existsSync(join(cwd, "dist/_manifest.json"))).toBe(true);
  });

  it("prints the report as JSON with --json, with options applied", () => {
    const out = join(work, "json-out");
    const r = dts(["build", "--corpus", EMBEDDED, "--out", out, "--json", "--base-path", "/dts/", "--page-size", "2"]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ documents: 6, withoutText: 1, passages: 75, warnings: [] });
    expect(report.files).toBeGreaterThan(150);
    expect(typeof report.seconds).toBe("number");
    expect(JSON.parse(readFileSync(join(out, "_site.json"), "utf8"))).toMatchObject({ basePath: "/dts", pageSize: 2 });
  });

  it("reports problems in single files as warnings with file, line and column, and still builds", () => {
    const corpus = join(work, "warn");
    mkdirSync(corpus);
    writeFileSync(join(corpus, "good.xml"), TEI(`<div n="1"><p n="1">a</p></div>`));
    writeFileSync(join(corpus, "bad.xml"), TEI(`<div n="1"><p n="1">a</div>`));
    const r = dts(["build", "--corpus", corpus, "--out", join(work, "warn-out"), "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const bad = report.warnings.find((w: { file: string }) => w.file.endsWith("bad.xml") && /not well-formed/.test(JSON.stringify(w)));
    expect(bad).toMatchObject({ line: 3 });
    expect(bad.column).toBeGreaterThan(1);
    expect(report.passages).toBe(2);
  });

  it("exits non-zero naming the file, line and column when the corpus cannot be built", () => {
    const corpus = join(work, "broken");
    mkdirSync(corpus);
    writeFileSync(join(corpus, "collection.json"), '{\n  "id": "x",\n  "title": oops\n}\n');
    const r = dts(["build", "--corpus", corpus, "--out", join(work, "broken-out")]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/collection\.json:3:\d+: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // One clean line: file:line:column and what is there, not JSON.parse's raw multi-line excerpt.
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/collection\.json:3:12: invalid JSON: unexpected "o"\n$/);
    const missing = dts(["build", "--corpus", join(work, "nothing-here"), "--out", join(work, "x")]);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/nothing-here.*corpus folder not found/);
  });

  it("rejects a bad option value with a message", () => {
    const r = dts(["build", "--page-size", "zero"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--page-size must be a whole number/);
  });
});

describe("dts serve", () => {
  it("serves a built tree on the given port until stopped", async () => {
    const out = join(work, "serve-out");
    expect(dts(["build", "--corpus", EMBEDDED, "--out", out]).status).toBe(0);
    const child = spawn(process.execPath, [DTS, "serve", "--dist", out, "--port", "0"], { cwd: work });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = "";
        child.stdout.on("data", (d) => {
          seen += d;
          const m = /dts serve: (http:\/\/\S+?)(\/api\/dts)/.exec(seen);
          if (m) resolve(m[1]);
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      const r = await fetch(`${url}/api/dts/collection`);
      expect(r.status).toBe(200);
      expect((await r.json())["@id"]).toBe("default");
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("refuses a folder that is not a built tree", () => {
    const r = dts(["serve", "--dist", join(work, "no-tree"), "--port", "0"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/not a built tree/);
  });
});
