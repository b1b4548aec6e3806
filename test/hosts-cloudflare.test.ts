// The Cloudflare Worker `dts build --target cloudflare` writes, bundled as wrangler bundles it
// (esbuild) and run in Cloudflare's local Workers runtime (workerd, through Miniflare) with the
// tree as its static assets: the same conformance suite as `dts serve`, and the generated
// configuration checked against wrangler's documented shape.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { isAsset } from "../builder/hosts/cloudflare.js";
import { makeSite } from "../builder/site.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { COMPUTED_REQUESTS, ESCAPE_REQUESTS, expectSameAnswer, rawRequest, STORED_REQUESTS } from "./helpers/hosts-conformance.js";
import { EMBEDDED, TEST_SITE_URL, treeFiles } from "./helpers/tree.js";
import { type RunningWorker, startWorker, wranglerConfig } from "./helpers/workerd.js";

let work: string;
let dist: string;
let reference: RunningServer;
let worker: RunningWorker | null = null;
let workerUrl = "";
let skipped = "";

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "dts-cloudflare-"));
  dist = join(work, "dist");
  const site = makeSite({ siteUrl: TEST_SITE_URL });
  await build({ corpus: EMBEDDED, out: dist, site, hosts: { hosts: ["cloudflare"] } });
  reference = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
  // What wrangler uploads: the tree less what .assetsignore names, as the build counted it.
  const assets = join(work, "assets");
  for (const [path, data] of treeFiles(dist)) {
    if (!isAsset(path)) continue;
    mkdirSync(dirname(join(assets, path)), { recursive: true });
    writeFileSync(join(assets, path), data);
  }
  const started = await startWorker(dist, assets);
  if (typeof started === "string") skipped = started;
  else {
    worker = started;
    workerUrl = started.url;
  }
});

afterAll(async () => {
  await worker?.dispose();
  await reference?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the Cloudflare Worker in workerd", () => {
  it("answers every request of the suite as dts serve does", async (ctx) => {
    if (skipped) ctx.skip();
    for (const path of [...STORED_REQUESTS, ...COMPUTED_REQUESTS]) await expectSameAnswer(reference.url, workerUrl, path);
    for (const path of STORED_REQUESTS.slice(0, 6)) await expectSameAnswer(reference.url, workerUrl, path, "HEAD");
    await expectSameAnswer(reference.url, workerUrl, "/api/dts/document?id=x", "OPTIONS");
    // The Worker has no write API: writes are refused as not allowed, in the API's error format.
    const put = await rawRequest(workerUrl, "/api/dts/document?id=x", { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(put.body.toString("utf8")).toMatch(/statusCode="405"/);
  });

  it("serves the reader page at / and its two files as dts serve does, with its policy", async (ctx) => {
    if (skipped) ctx.skip();
    for (const path of ["/", "/dts-reader.js", "/dts-reader.css"]) {
      await expectSameAnswer(reference.url, workerUrl, path);
      const r = await rawRequest(workerUrl, path);
      expect(r.status, path).toBe(200);
      expect(r.headers["content-security-policy"], path).toMatch(/^default-src 'none'; script-src 'self';/);
    }
  });

  it("does not serve the tree's files, nor anything outside it", async (ctx) => {
    if (skipped) ctx.skip();
    for (const path of [
      ...ESCAPE_REQUESTS,
      "/_catalog.json",
      "/document/urn_3acts_3alatin_4cit_3aphi0690.phi003.sample-lat1/_.xml",
      "/_hosts/cloudflare/wrangler.jsonc",
    ]) {
      const r = await rawRequest(workerUrl, path);
      expect([400, 404], path).toContain(r.status);
      expect(r.body.toString("utf8"), path).not.toMatch(/root:x|"rootId"|"compatibility_date"/);
      await expectSameAnswer(reference.url, workerUrl, path);
    }
  });
});

describe("the generated Cloudflare files", () => {
  it("configure a Worker with the tree as run-worker-first assets, and keep host files out of them", () => {
    const config = wranglerConfig(dist);
    expect(config.name).toMatch(/^[a-z0-9-]{1,63}$/);
    expect(config.main).toBe("worker.mjs");
    expect(config.compatibility_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(config.assets).toEqual({
      directory: "../..",
      binding: "ASSETS",
      run_worker_first: true,
      html_handling: "none",
      not_found_handling: "none",
    });
    const entry = readFileSync(join(dist, "_hosts/cloudflare/worker.mjs"), "utf8");
    expect(entry).toMatch(/^export \{ default \} from "(\.\.\/)+.*out\/server\/adapters\/worker-entry\.js";$/m);
    const ignore = readFileSync(join(dist, ".assetsignore"), "utf8").split("\n");
    for (const name of ["_hosts", "_headers", "_redirects", ".htaccess", "*.gz", "*.br", "**/_build.json"]) expect(ignore).toContain(name);
    // The build counts what the Worker is handed: a few files per document, not one per response.
    const files = [...treeFiles(dist).keys()];
    expect(files.filter(isAsset).length).toBeLessThan(80);
    expect(files.filter(isAsset)).not.toContain("_hosts/cloudflare/wrangler.jsonc");
    expect(files.filter((f) => f.endsWith("_build.json")).some(isAsset)).toBe(false);
  });
});
