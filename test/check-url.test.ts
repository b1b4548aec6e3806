// `dts check <url>` against real servers: it passes on our own deployments (dts serve of the
// embedded corpus, 1-draft2 and 1.0; nginx with the generated rules) and on a tiny independent
// service, and names the fault, with its URL, when a deployment is broken in one way.

import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { HYDRA_CONTEXT, PUBLISHED_CONTEXT, V1_CONTEXT } from "../builder/wire.js";
import { checkService } from "../check/crawl.js";
import type { CheckReport, Finding } from "../check/report.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { EDGE } from "./helpers/embedded.js";
import { freePort } from "./helpers/hosts-conformance.js";
import { NGINX, PLAIN_NGINX, type RunningNginx, startNginx, startPlainNginx } from "./helpers/nginx.js";
import { type Fault, startTinyService, type TinyService } from "./helpers/tiny-dts.js";
import { EMBEDDED, PROJECT } from "./helpers/tree.js";

/** Whether contexts published on the web can be fetched from here (CI runners with no egress cannot). */
async function online(): Promise<boolean> {
  try {
    return (await fetch(V1_CONTEXT, { signal: AbortSignal.timeout(3000) })).ok;
  } catch {
    return false;
  }
}
const ONLINE = await online();
if (!ONLINE) {
  console.warn(
    `${V1_CONTEXT} cannot be fetched (no network): checks of our own deployments run with --offline, and contexts on other hosts (the 1.0 and Hydra contexts) are warnings there, not checked`,
  );
}

const failures = (r: CheckReport): Finding[] => r.findings.filter((f) => f.outcome === "fail");
const passed = (r: CheckReport, check: string): number => r.findings.filter((f) => f.check === check && f.outcome === "pass").length;
/** Contexts that are on the web, not served by the tree: unchecked offline, and only those. */
const EXTERNAL = [V1_CONTEXT, HYDRA_CONTEXT];
const unexplainedWarnings = (r: CheckReport): Finding[] =>
  r.findings.filter((f) => f.outcome === "warn" && !(f.check === "jsonld-expansion" && EXTERNAL.some((c) => f.got?.includes(c))));

/** What every run on a conforming deployment shows: no failure, and the deep checks really ran. */
function expectPasses(report: CheckReport, version: "1-draft2" | "1.0"): void {
  expect(report.version).toBe(version);
  expect(failures(report)).toEqual([]);
  for (const check of ["collection-keys", "member-keys", "nav-parents", "navigation-keys", "passage-wrapper", "range-concatenation"]) {
    expect(passed(report, check), check).toBeGreaterThan(0);
  }
  for (const check of ["xml-well-formed", "cors-allow-origin", "cors-expose-link", "content-type", "error-format", "link-target"]) {
    expect(passed(report, check), check).toBeGreaterThan(0);
  }
}

describe("dts check <url> on dts serve of the embedded corpus (1-draft2 and 1.0)", () => {
  let dist: string;
  let server: RunningServer;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), "dts-check-url-"));
    const site = makeSite({ apis: ["1-draft2", "1.0"] });
    await build({ corpus: EMBEDDED, out: dist, site, workers: 0 });
    server = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("passes on the 1-draft2 API, every sampled resource read at every level", async () => {
    const started = performance.now();
    const report = await checkService(`${server.url}/api/dts`, { offline: !ONLINE });
    console.log(`dts check of the embedded corpus (1-draft2): ${((performance.now() - started) / 1000).toFixed(2)} s`);
    expectPasses(report, "1-draft2");
    // The six documents are all read (five have text); the Georgics range is two lines of book 1.
    expect(passed(report, "navigation-units")).toBe(5);
    expect(passed(report, "range-concatenation")).toBe(5);
  });

  it("passes on the 1.0 API, its URI templates expanded as clients do", async () => {
    const report = await checkService(`${server.url}/api/dts/v1/`, { offline: !ONLINE });
    expectPasses(report, "1.0");
    expect(unexplainedWarnings(report)).toEqual([]);
  });

  // The tree's own context, absolute at the request's origin, with extensions and Dublin Core as
  // RDF terms: every 1-draft2 answer expands. The embedded edge cases' id has a space, no IRI:
  // a warning that names it, the only one.
  it("expands every 1-draft2 answer as JSON-LD in safe mode with the context the tree serves", async () => {
    const report = await checkService(`${server.url}/api/dts`, { offline: !ONLINE });
    expect(passed(report, "jsonld-expansion")).toBeGreaterThan(30);
    const jsonld = report.findings.filter((f) => f.check === "jsonld-expansion" && f.outcome !== "pass");
    expect(jsonld.filter((f) => f.got?.includes(PUBLISHED_CONTEXT) || f.outcome === "fail")).toEqual([]);
    const notIris = unexplainedWarnings(report).filter((f) => f.check === "jsonld-identifier");
    expect(notIris.length).toBeGreaterThan(0);
    for (const f of notIris) expect(f.got).toBe(JSON.stringify(EDGE));
    expect(unexplainedWarnings(report).filter((f) => f.check !== "jsonld-identifier")).toEqual([]);
  });

  it("stops at --max-resources and says so, and reads --sample resources", async () => {
    const report = await checkService(`${server.url}/api/dts`, { offline: true, maxResources: 3, sample: 1 });
    expect(report.notes.join(" ")).toMatch(/stopped after 3 collections and resources \(--max-resources 3\)/);
    expect(passed(report, "collection-keys")).toBe(3);
    expect(failures(report)).toEqual([]);
  });
});

describe("dts check <url> on a tiny independent service", () => {
  it("passes when nothing is broken, JSON-LD expansion included", async () => {
    const tiny = await startTinyService();
    try {
      const report = await checkService(tiny.entry);
      expectPasses(report, "1-draft2");
      expect(passed(report, "jsonld-expansion")).toBeGreaterThan(5);
      expect(report.findings.filter((f) => f.outcome === "warn")).toEqual([]);
    } finally {
      await tiny.close();
    }
  });

  /** Each fault, the check that must fail, and the URL it must fail on (relative to the service). */
  const FAULTS: [Fault, string, string, RegExp][] = [
    ["html-for-unknown", "error-status", "/api/collection?id=urn%3Adts-check%3Ano-such-id", /HTTP 200/],
    ["range-not-units", "range-concatenation", "/api/document?id=doc&start=1&end=3", /unit 2 of 3|between units/],
    ["malformed-passage", "xml-well-formed", "/api/document?id=doc&ref=4", /line 1/],
    ["unreachable-context", "jsonld-expansion", "/api", /the context http:\/\/127\.0\.0\.1:9\/context\.json could not be loaded/],
    ["wrong-document-type", "content-type", "/api/document?id=doc&ref=1", /text\/xml/],
  ];
  for (const [fault, check, path, got] of FAULTS) {
    it(`fails with ${check} on ${path} when ${fault}`, async () => {
      const tiny = await startTinyService(fault);
      try {
        const report = await checkService(tiny.entry);
        const found = failures(report).filter((f) => f.check === check && f.url === tiny.url + path);
        expect(found, JSON.stringify(failures(report).slice(0, 5), null, 2)).toHaveLength(1);
        expect(found[0].got).toMatch(got);
        // The rest of the service is still checked (a fault does not stop the crawl).
        expect(passed(report, "collection-keys")).toBeGreaterThan(0);
      } finally {
        await tiny.close();
      }
    });
  }
});

if (!NGINX) console.warn("nginx (with its JavaScript module) is not installed: skipping dts check against nginx");

describe.skipIf(!NGINX)("dts check <url> on nginx with the generated rules", () => {
  let work: string;
  let dist: string;
  let upstream: RunningServer;
  let nginx: RunningNginx;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-check-nginx-"));
    chmodSync(work, 0o755);
    dist = join(work, "dist");
    const site = makeSite();
    await build({ corpus: EMBEDDED, out: dist, site, workers: 0, hosts: { hosts: ["nginx"], compress: false } });
    upstream = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
    nginx = await startNginx(join(work, "nginx"), dist, upstream.url);
  });
  afterAll(async () => {
    await nginx?.stop();
    await upstream?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("passes", async () => {
    expectPasses(await checkService(`${nginx.url}/api/dts`, { offline: !ONLINE }), "1-draft2");
  });

  it("fails cors-allow-origin on the stored answers when the rules drop the CORS header", async () => {
    // The same tree and rules, with the header removed from what the njs handler sends.
    const handler = join(dist, "_hosts/nginx/dts.js");
    const original = readFileSync(handler, "utf8");
    expect(original).toContain('"Access-Control-Allow-Origin": "*",');
    writeFileSync(handler, original.replace('"Access-Control-Allow-Origin": "*",', ""));
    const broken = await startNginx(join(work, "broken"), dist, upstream.url);
    try {
      const report = await checkService(`${broken.url}/api/dts`, { offline: true });
      const cors = failures(report).filter((f) => f.check === "cors-allow-origin");
      expect(cors.map((f) => f.url)).toContain(`${broken.url}/api/dts`);
      expect(cors[0].got).toBe("no such header");
      // Answers dts serve computes behind nginx (the error probes) still carry it.
      expect(cors.map((f) => f.url).some((u) => u.includes("no-such-id"))).toBe(false);
    } finally {
      await broken.stop();
      writeFileSync(handler, original);
    }
  });
});

describe.skipIf(!PLAIN_NGINX)("dts check <url> on the DTS 1.0 static profile served by a plain nginx (Level 0)", () => {
  let work: string;
  let dist: string;
  let port: number;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-check-static-"));
    chmodSync(work, 0o755);
    dist = join(work, "dist");
    port = await freePort();
    const site = makeSite({ apis: ["1.0"], staticPaths: true, siteUrl: `http://127.0.0.1:${port}` });
    await build({ corpus: EMBEDDED, out: dist, site, workers: 0 });
  });
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("passes with the CORS headers added, ranges (which Level 0 need not answer) a warning", async () => {
    const cors = `add_header Access-Control-Allow-Origin "*" always; add_header Access-Control-Expose-Headers "Link, Location, ETag" always;`;
    const nginx = await startPlainNginx(join(work, "nginx"), dist, port, cors);
    try {
      const report = await checkService(`${nginx.url}/api/dts/v1/index.jsonld`, { offline: !ONLINE });
      expect(report.version).toBe("1.0");
      expect(failures(report)).toEqual([]);
      expect(passed(report, "passage-wrapper")).toBeGreaterThan(0);
      const ranges = report.findings.filter((f) => f.check === "range-support");
      expect(ranges.length).toBeGreaterThan(0);
      for (const f of ranges) expect([f.outcome, f.got]).toEqual(["warn", "HTTP 404"]);
    } finally {
      await nginx.stop();
    }
  });

  it("fails cors-allow-origin on every answer when the file server sends no CORS header", async () => {
    const nginx = await startPlainNginx(join(work, "plain"), dist, port);
    try {
      const report = await checkService(`${nginx.url}/api/dts/v1/index.jsonld`, { offline: true });
      const cors = failures(report).filter((f) => f.check === "cors-allow-origin");
      expect(cors.map((f) => f.url)).toContain(`${nginx.url}/api/dts/v1/index.jsonld`);
      expect(failures(report).filter((f) => !f.check.startsWith("cors-"))).toEqual([]);
    } finally {
      await nginx.stop();
    }
  });
});

/** The compiled CLI in a child process, asynchronously: the servers it checks run in this process. */
function dts(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(PROJECT, "bin/dts.js"), ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("dts check <url> on the command line", () => {
  let good: TinyService;
  let broken: TinyService;
  beforeAll(async () => {
    good = await startTinyService();
    broken = await startTinyService("range-not-units");
  });
  afterAll(async () => {
    await good?.close();
    await broken?.close();
  });

  it("exits 0 with a summary when every check passes", async () => {
    const r = await dts(["check", good.entry]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ checks passed, 0 failed, 0 warnings \([\d.]+ s\)$/m);
  });

  it("exits 1 and prints a JSON report naming the failed check with --json", async () => {
    const r = await dts(["check", broken.entry, "--json", "--concurrency", "2", "--timeout", "5"]);
    expect(r.status, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as CheckReport;
    expect(report.version).toBe("1-draft2");
    expect(report.counts.fail).toBeGreaterThan(0);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ check: "range-concatenation", outcome: "fail", url: `${broken.url}/api/document?id=doc&start=1&end=3` }),
    );
  });

  it("prints a human report naming the fault, its URL, what was expected and what came", async () => {
    const r = await dts(["check", broken.entry]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("FAIL range-concatenation");
    expect(r.stdout).toContain(`failed: ${broken.url}/api/document?id=doc&start=1&end=3`);
    expect(r.stdout).toMatch(/expected: the range 1 to 3 is its 3 units one after the other/);
  });

  it("exits 2 for an argument that is not a URL, and 1 when nothing answers", async () => {
    const notUrl = await dts(["check", "corpus"]);
    expect(notUrl.status).toBe(2);
    expect(notUrl.stderr).toMatch(/not an http\(s\) URL; to check a corpus folder, use --corpus corpus/);
    const nothing = await dts(["check", "http://127.0.0.1:9/api/dts", "--timeout", "2"]);
    expect(nothing.status).toBe(1);
    expect(nothing.stdout).toMatch(/FAIL entry-point/);
  });
});
