// The R2 path: `dts deploy`'s upload code fills an R2 bucket (Miniflare's, through the binding,
// behind the same ObjectStore as S3), and the R2 Worker entry, bundled as wrangler bundles it and
// run in workerd, answers from it as `dts serve` answers from the tree on disk; a second deploy
// is served whole once its switch is written, without restarting the Worker.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { deploy } from "../deploy/deploy.js";
import { type R2BucketLike, r2BindingStore } from "../deploy/r2-binding-store.js";
import type { ObjectStore } from "../deploy/store.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { CATULLUS, CATULLUS_FILE, doc } from "./helpers/embedded.js";
import { COMPUTED_REQUESTS, ESCAPE_REQUESTS, expectSameAnswer, STORED_REQUESTS } from "./helpers/hosts-conformance.js";
import { EMBEDDED, PROJECT, TEST_SITE_URL } from "./helpers/tree.js";
import { bundleWorker } from "./helpers/workerd.js";

let work: string;
let dist: string;
let corpus: string;
let reference: RunningServer;
let mf: Miniflare | null = null;
let workerUrl = "";
let store: ObjectStore;
let skipped = "";
const site = makeSite({ siteUrl: TEST_SITE_URL, apis: ["1-draft2", "1.0"] });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "dts-deploy-r2-"));
  dist = join(work, "dist");
  corpus = join(work, "corpus");
  cpSync(EMBEDDED, corpus, { recursive: true });
  await build({ corpus, out: dist, site });
  reference = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
  let Miniflare: typeof import("miniflare").Miniflare;
  try {
    ({ Miniflare } = await import("miniflare"));
  } catch (e) {
    skipped = `miniflare is not installed (${(e as Error).message})`;
    return;
  }
  mf = new Miniflare({
    modules: true,
    script: await bundleWorker(join(PROJECT, "out/server/adapters/r2-worker-entry.js")),
    compatibilityDate: "2025-01-01",
    host: "127.0.0.1",
    port: 0,
    r2Buckets: ["DTS_TREE"],
    bindings: { DTS_PREFIX: "editions/latin" },
  });
  workerUrl = (await mf.ready).origin;
  const bucket = (await mf.getR2Bucket("DTS_TREE")) as unknown as R2BucketLike;
  store = r2BindingStore(bucket, "tree", "editions/latin");
  await deploy({ dist, store, maxDeletes: 0 });
});

afterAll(async () => {
  await mf?.dispose();
  await reference?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the R2 Worker over a deployed tree, in workerd", () => {
  it("answers every request of the suite as dts serve does", async (ctx) => {
    if (skipped) ctx.skip();
    for (const path of [...STORED_REQUESTS, ...COMPUTED_REQUESTS, ...ESCAPE_REQUESTS])
      await expectSameAnswer(reference.url, workerUrl, path);
    for (const path of STORED_REQUESTS.slice(0, 6)) await expectSameAnswer(reference.url, workerUrl, path, "HEAD");
    // The bucket's own objects are not reachable by their keys.
    for (const path of ["/_dts/current.json", "/_catalog.json", "/editions/latin/_site.json"]) {
      expect((await fetch(workerUrl + path)).status, path).toBe(404);
    }
  });

  it("serves a new deploy once its switch is written, without a restart", async (ctx) => {
    if (skipped) ctx.skip();
    const passage = doc(CATULLUS, "&ref=1");
    expect(await (await fetch(workerUrl + passage)).text()).toContain("atque amemus,");
    const file = join(corpus, CATULLUS_FILE);
    writeFileSync(file, readFileSync(file, "utf8").replace("atque amemus,", "atque amemus;"));
    await build({ corpus, out: dist, site });
    const report = await deploy({ dist, store, maxDeletes: 100 });
    expect(report.uploaded).toBeGreaterThan(0);
    expect(report.uploaded).toBeLessThan(report.unchanged);
    // The reader looks at the switch at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await (await fetch(workerUrl + passage)).text()).toContain("atque amemus;");
    await reference.close();
    reference = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
    for (const path of STORED_REQUESTS) await expectSameAnswer(reference.url, workerUrl, path);
  });
});
