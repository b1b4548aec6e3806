// Static hosting at real size: the whole Perseus Latin library (../shared/corpora/latinLit, 460
// documents, 313,168 passages) built in the packed layout with the nginx, Cloudflare and Netlify
// rules. Each host's deployable set is within its documented limits, nginx's rules stay small
// and it listens at once, and real nginx (with njs) and the Worker in workerd answer a sample
// of requests of every kind exactly as `dts serve` does. Apache, which needs one file per body,
// answers the same kinds of request on a slice of the library (every sixth author), to keep
// the run's disk use down (the whole library is 644,000 files in that layout).

import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuildReport, build } from "../builder/build/build.js";
import type { HostResult } from "../builder/hosts/common.js";
import { makeSite } from "../builder/site.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { APACHE, type RunningApache, startApache } from "./helpers/apache.js";
import { expectSameAnswer, freePort } from "./helpers/hosts-conformance.js";
import { NGINX, type RunningNginx, startNginx } from "./helpers/nginx.js";
import { sampleRequests } from "./helpers/samples.js";
import { HAS_SHARED, SHARED, SHARED_SKIP, TEST_SITE_URL } from "./helpers/tree.js";
import { type RunningWorker, startWorker } from "./helpers/workerd.js";

if (!HAS_SHARED) console.warn(SHARED_SKIP);

describe.skipIf(!HAS_SHARED)("latinLit on static hosts", () => {
  const site = makeSite({ siteUrl: TEST_SITE_URL });
  let work: string;
  let dist: string;
  let report: BuildReport;
  let reference: RunningServer;
  let nginx: RunningNginx | null = null;
  let nginxStart = 0;
  let worker: RunningWorker | string = "";
  let sample: string[];

  const host = (name: string): HostResult => report.hostFiles!.hosts.find((h) => h.host === name)!;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-latinlit-"));
    chmodSync(work, 0o755);
    dist = join(work, "dist");
    report = await build({ corpus: join(SHARED, "latinLit"), out: dist, site, hosts: { hosts: ["nginx", "cloudflare", "netlify"] } });
    reference = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
    if (NGINX) {
      const started = performance.now();
      nginx = await startNginx(join(work, "nginx"), dist, reference.url);
      nginxStart = performance.now() - started;
    }
    worker = await startWorker(dist);
    sample = sampleRequests(dist, site, 23);
  }, 600_000);

  afterAll(async () => {
    await nginx?.stop();
    if (typeof worker !== "string") await worker.dispose();
    await reference?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("builds the corpus whole", () => {
    expect(report.documents).toBe(460);
    expect(report.passages).toBe(313_168);
  });

  it("hands Cloudflare at most 20,000 files (Workers Free), none over 25 MiB", () => {
    const cf = host("cloudflare");
    expect(cf.deploy.files).toBeGreaterThan(460);
    expect(cf.deploy.files).toBeLessThanOrEqual(20_000);
    expect(cf.deploy.largest.bytes).toBeLessThanOrEqual(25 * 1024 * 1024);
    expect(cf.warnings).toEqual([]);
  });

  it("hands Netlify no rule per response and no folder over 54,000 entries", () => {
    const netlify = host("netlify");
    expect(netlify.rules).toBe(0);
    expect(netlify.deploy.fullest.files).toBeLessThanOrEqual(54_000);
    expect(netlify.warnings).toEqual([]);
  });

  it("gives nginx rules of a few kilobytes, and nginx listens within 2 s", (ctx) => {
    expect(host("nginx").bytes).toBeLessThan(100_000);
    if (!nginx) ctx.skip();
    expect(nginxStart).toBeLessThan(2000);
  });

  it("nginx answers a sample of every kind of request as dts serve does", async (ctx) => {
    if (!nginx) ctx.skip();
    expect(sample.length).toBeGreaterThan(300);
    for (const path of sample) await expectSameAnswer(reference.url, nginx!.url, path);
  });

  it("the Worker in workerd answers the same sample as dts serve does", async (ctx) => {
    if (typeof worker === "string") ctx.skip();
    for (const path of sample) await expectSameAnswer(reference.url, (worker as RunningWorker).url, path);
  }, 300_000);
});

describe.skipIf(!HAS_SHARED || !APACHE)("a slice of latinLit on Apache (one file per body)", () => {
  const site = makeSite({ layout: "files", siteUrl: TEST_SITE_URL });
  let work: string;
  let reference: RunningServer;
  let apache: RunningApache;
  let sample: string[];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-latinlit-apache-"));
    chmodSync(work, 0o755);
    const corpus = join(work, "corpus");
    const authors = readdirSync(join(SHARED, "latinLit/data")).filter((_, i) => i % 6 === 0);
    for (const a of authors) cpSync(join(SHARED, "latinLit/data", a), join(corpus, "data", a), { recursive: true });
    const dist = join(work, "dist");
    const upstream = await freePort();
    await build({ corpus, out: dist, site, hosts: { hosts: ["apache"], upstream: `http://127.0.0.1:${upstream}` } });
    reference = await startServer({ dist, site, port: upstream, host: "127.0.0.1" });
    apache = await startApache(work, dist);
    sample = sampleRequests(dist, site, 2);
  }, 300_000);

  afterAll(async () => {
    await apache?.stop();
    await reference?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("Apache answers a sample of every kind of request as dts serve does", async () => {
    expect(sample.length).toBeGreaterThan(100);
    try {
      for (const path of sample) await expectSameAnswer(reference.url, apache.url, path);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${apache.log()}`);
    }
  }, 300_000);
});
