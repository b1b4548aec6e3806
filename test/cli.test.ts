// The `dts` command as users run it: the compiled CLI in a child process.

import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED, PROJECT, snapshotTree } from "./helpers/tree.js";

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

/** `dts serve` in a child process, once its output matches `until`. */
async function serve(args: string[], until: RegExp): Promise<{ child: ReturnType<typeof spawn>; seen: string }> {
  const child = spawn(process.execPath, [DTS, "serve", "--port", "0", ...args], { cwd: work });
  const seen = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (until.test(out)) resolve(out);
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, seen };
}

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
    expect(report.files).toBeGreaterThan(40);
    expect(typeof report.seconds).toBe("number");
    expect(JSON.parse(readFileSync(join(out, "_site.json"), "utf8"))).toMatchObject({ basePath: "/dts", pageSize: 2 });
  });

  it("builds DTS 1.0 with --api, reports the entry point, and refuses what makes no sense", () => {
    const out = join(work, "v1-out");
    const both = dts([
      "build",
      "--corpus",
      EMBEDDED,
      "--out",
      out,
      "--json",
      "--api",
      "1-draft2,1.0",
      "--site-url",
      "https://example.org/ed/",
    ]);
    expect(both.status, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout).entryPoint).toBe("https://example.org/ed/api/dts/v1/");
    expect(JSON.parse(readFileSync(join(out, "_site.json"), "utf8"))).toMatchObject({
      apis: ["1-draft2", "1.0"],
      siteUrl: "https://example.org/ed",
    });

    const staticOut = join(work, "v1-static");
    const stat = dts(["build", "--corpus", EMBEDDED, "--out", staticOut, "--json", "--api", "1.0", "--static-paths"]);
    expect(stat.status, stat.stderr).toBe(0);
    const report = JSON.parse(stat.stdout);
    // Without a site URL the templates are root-relative: the entry point is the file a client starts from.
    expect(report.entryPoint).toBe("/api/dts/v1/index.jsonld");
    expect(existsSync(join(staticOut, "api/dts/v1/index.jsonld"))).toBe(true);
    expect(report.staticSite.files).toBeGreaterThan(400);
    const human = dts(["build", "--corpus", EMBEDDED, "--out", staticOut, "--api", "1.0", "--static-paths"]);
    expect(human.stdout).toMatch(/entry\s+\/api\/dts\/v1\/index\.jsonld\n/);
    expect(human.stdout).toMatch(/static\s+\d+ files in the tree \([\d.]+ [kM]B\), for a file server/);

    const cases: [string[], RegExp][] = [
      [["--api", "2.0"], /--api takes 1-draft2, 1\.0 or both/],
      [["--static-paths"], /--static-paths is a profile of DTS 1\.0: add --api 1\.0/],
      [["--api", "1.0", "--site-url", "ftp://example.org"], /site URL must be http or https/],
      [["--api", "1.0", "--site-url", "example.org"], /site URL must be an absolute http or https URL/],
      [["--api", "1.0", "--site-url", "https://example.org/?a=1"], /no query, fragment or credentials/],
    ];
    for (const [args, message] of cases) {
      const r = dts(["build", "--corpus", EMBEDDED, "--out", join(work, "v1-refused"), ...args]);
      expect([args, r.status]).toEqual([args, 1]);
      expect(r.stderr).toMatch(message);
      expect(existsSync(join(work, "v1-refused"))).toBe(false);
    }
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

describe("dts build: reports and paths", () => {
  it("groups warnings by kind with counts, those a user can act on first, and says how to see all", () => {
    const corpus = join(work, "kinds");
    mkdirSync(corpus);
    const doctype = `<?xml version="1.0"?>\n<!DOCTYPE TEI [<!ENTITY x "y">]>\n`;
    for (let i = 1; i <= 5; i++)
      writeFileSync(join(corpus, `a${i}.xml`), TEI(`<div n="1"><p n="1">&x;</p></div>`).replace(/^<\?xml[^>]*>\n/, doctype));
    writeFileSync(join(corpus, "z.xml"), TEI(`<div n="1"><p n="1">a</p><p n="1">b</p></div>`));
    const r = dts(["build", "--corpus", corpus, "--out", join(work, "kinds-out")]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    const dup = lines.findIndex((l) => /^ {4}1 duplicate reference:$/.test(l));
    const doctypes = lines.findIndex((l) => /^ {4}5 DOCTYPEs with entities \(handled\):$/.test(l));
    expect(dup, r.stdout).toBeGreaterThan(0);
    expect(doctypes).toBeGreaterThan(dup);
    expect(lines[dup + 1]).toMatch(/z\.xml:3:\d+: duplicate reference "1\.1"/);
    expect(lines.slice(doctypes + 1).filter((l) => /a\d\.xml/.test(l))).toHaveLength(3);
    expect(r.stdout).toMatch(/ {6}\.\.\. and 2 more\n {4}--json lists all 6 warnings/);
  });

  it("echoes paths as the user gave them: absolute stays absolute, relative stays relative", () => {
    const corpus = join(work, "paths", "corpus");
    mkdirSync(corpus, { recursive: true });
    writeFileSync(join(corpus, "bad.xml"), TEI(`<div n="1"><p n="1">a</div>`));
    const absolute = dts(["build", "--corpus", corpus, "--out", join(work, "paths", "out")], join(work, "paths"));
    expect(absolute.stdout).toContain(`${join(corpus, "bad.xml")}:3:`);
    const rel = dts(["build", "--corpus", "corpus", "--out", "out"], join(work, "paths"));
    expect(rel.stdout).toMatch(/\n {6}corpus\/bad\.xml:3:/);
    writeFileSync(join(corpus, "collection.json"), "{");
    const broken = dts(["build", "--corpus", corpus, "--out", join(work, "paths", "out")], join(work, "paths"));
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain(`dts build: ${join(corpus, "collection.json")}:1:2: invalid JSON`);
  });

  it("refuses an empty corpus, saying which layouts it looked for, and leaves --out alone", () => {
    const corpus = join(work, "empty");
    mkdirSync(corpus);
    const r = dts(["build", "--corpus", corpus, "--out", join(work, "empty-out")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no documents found: looked for CapiTainS metadata \(__cts__\.xml, __capitains__\.xml\).*TEI \.xml files/);
    expect(existsSync(join(work, "empty-out"))).toBe(false);
  });

  it("says that a --corpus naming a file is a file", () => {
    writeFileSync(join(work, "a-file.xml"), TEI(""));
    const r = dts(["build", "--corpus", join(work, "a-file.xml"), "--out", join(work, "file-out")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/a-file\.xml: is a file, not a folder/);
    expect(r.stderr).not.toMatch(/not found/);
  });

  it("writes host rules with --target; --host still works there, with a deprecation notice", () => {
    const target = dts(["build", "--corpus", EMBEDDED, "--out", join(work, "target-out"), "--target", "nginx"]);
    expect(target.status, target.stderr).toBe(0);
    expect(existsSync(join(work, "target-out/_hosts/nginx/dts-http.conf"))).toBe(true);
    expect(target.stderr).not.toMatch(/deprecated/);
    const old = dts(["build", "--corpus", EMBEDDED, "--out", join(work, "host-out"), "--host", "netlify"]);
    expect(old.status, old.stderr).toBe(0);
    expect(existsSync(join(work, "host-out/_hosts/netlify/netlify.toml"))).toBe(true);
    expect(old.stderr).toMatch(/--host is deprecated here, use --target/);
  });
});

describe("dts check", () => {
  it("reads a corpus as a build would and reports the build's warnings, writing nothing", () => {
    const corpus = join(work, "check-corpus");
    cpSync(EMBEDDED, corpus, { recursive: true });
    const clean = dts(["check", "--corpus", corpus]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/documents {2}6 \(1 without text\)\n {2}passages {3}75\n {2}warnings {3}0/);
    const file = join(corpus, "latin/catullus-5.xml");
    writeFileSync(file, readFileSync(file, "utf8").replace("</body>", "<div></body>"));
    const before = snapshotTree(corpus);
    const cwd = mkdtempSync(join(work, "check-cwd-"));
    const broken = dts(["check", "--corpus", corpus, "--json"], cwd);
    expect(broken.status).toBe(2);
    // Nothing written: not beside the command, not in the corpus.
    expect(readdirSync(cwd)).toEqual([]);
    expect(snapshotTree(corpus)).toEqual(before);
    const built = dts(["build", "--corpus", corpus, "--out", join(work, "check-dist"), "--json"]);
    const [checked, report] = [JSON.parse(broken.stdout), JSON.parse(built.stdout)];
    expect(checked.warnings).toEqual(report.warnings);
    expect(
      checked.warnings.some(
        (w: { file: string; message: string }) => w.file.endsWith("catullus-5.xml") && /not well-formed/.test(w.message),
      ),
    ).toBe(true);
    expect([checked.documents, checked.withoutText, checked.passages]).toEqual([report.documents, report.withoutText, report.passages]);
  });

  it("exits 1 naming the folder when there is no corpus", () => {
    const r = dts(["check", "--corpus", join(work, "no-such-corpus")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no-such-corpus: corpus folder not found/);
  });
});

describe("dts", () => {
  it("prints its version with --version", () => {
    const r = dts(["--version"]);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(PROJECT, "package.json"), "utf8")).version);
  });

  it("alone, prints the help on stdout and exits 0", () => {
    const r = dts([]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: dts \[options\] \[command\]/);
    expect(r.stdout).toMatch(/build \[options\]/);
  });

  it("serve --help says how to enable writes (DTS_TOKEN)", () => {
    const r = dts(["serve", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/DTS_TOKEN="\$\(openssl rand -hex 24\)" dts serve --corpus/);
  });
});

describe("dts serve", () => {
  it("serves a built tree on the given port until stopped", async () => {
    const out = join(work, "serve-out");
    expect(dts(["build", "--corpus", EMBEDDED, "--out", out]).status).toBe(0);
    const { child, seen } = await serve(["--dist", out], /dts serve: http:\/\/\S+?\/api\/dts/);
    try {
      const url = /dts serve: (http:\/\/\S+?)\/api\/dts/.exec(seen)![1];
      const r = await fetch(`${url}/api/dts/collection`);
      expect(r.status).toBe(200);
      expect((await r.json())["@id"]).toBe("default");
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("with --corpus, prints the build's warnings at start; with --watch, the corpus it watches", async () => {
    const corpus = join(work, "serve-warn");
    mkdirSync(corpus);
    writeFileSync(join(corpus, "good.xml"), TEI(`<div n="1"><p n="1">a</p></div>`));
    writeFileSync(join(corpus, "bad.xml"), TEI(`<div n="1"><p n="1">a</div>`));
    const { child, seen } = await serve(["--dist", join(work, "serve-warn-out"), "--corpus", corpus, "--watch"], /watching/);
    child.kill("SIGTERM");
    expect(seen).toContain("dts serve: 1 warning building");
    expect(seen).toMatch(/ {4}1 file that is not well-formed XML:\n {6}\S*bad\.xml:3:\d+: not well-formed XML/);
    expect(seen).toContain(`dts serve: watching ${corpus} (Ctrl-C to stop)`);
  });

  it("refuses a folder that is not a built tree", () => {
    const r = dts(["serve", "--dist", join(work, "no-tree"), "--port", "0"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/not a built tree/);
  });
});
