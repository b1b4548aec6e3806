// `dts deploy` against a real S3-compatible server (s3rver on loopback): a first deploy, a
// one-line edit that uploads only the objects it changed, the deletion cap, a deploy killed
// midway that leaves the previous version served and resumes, and the DTS 1.0 static profile
// answered by the bucket itself.

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite, type Site } from "../builder/site.js";
import { SWITCH_KEY } from "../builder/tree/bucket-layout.js";
import { deploy } from "../deploy/deploy.js";
import { localObjects } from "../deploy/local-tree.js";
import { diskStorage } from "../server/adapters/disk-storage.js";
import { openTree } from "../server/open-tree.js";
import { CATULLUS, CATULLUS_FILE, doc } from "./helpers/embedded.js";
import { STORED_REQUESTS } from "./helpers/hosts-conformance.js";
import { BUCKET, bucketApp, type RunningS3, S3RVER_CREDENTIALS, startS3 } from "./helpers/s3rver.js";
import { EMBEDDED, PROJECT, TEST_SITE_URL } from "./helpers/tree.js";
import { fetchAnswer, walkV1 } from "./helpers/v1-walk.js";

let s3: RunningS3;
let work: string;
let corpus: string;
const site: Site = makeSite({ siteUrl: TEST_SITE_URL, apis: ["1-draft2", "1.0"] });

beforeAll(async () => {
  s3 = await startS3();
  work = mkdtempSync(join(tmpdir(), "dts-deploy-"));
  corpus = join(work, "corpus");
  cpSync(EMBEDDED, corpus, { recursive: true });
});

afterAll(async () => {
  await s3?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const keysOf = async (dist: string, s: Site = site): Promise<Set<string>> => new Set((await localObjects(dist, s)).map((o) => o.key));
const putsUnder = (prefix: string, from: number): string[] =>
  s3.events
    .slice(from)
    .filter((e) => e.kind === "put" && e.key.startsWith(`${prefix}/`))
    .map((e) => e.key.slice(prefix.length + 1));

/** Answers of the reader over the bucket and over the tree on disk, for the same requests. */
async function expectBucketAnswersLike(prefix: string, dist: string, paths = STORED_REQUESTS): Promise<void> {
  const fromBucket = await bucketApp(s3.store(prefix));
  const fromDisk = await openTree(diskStorage(dist), dist);
  for (const path of paths) {
    const [a, b] = await Promise.all([
      fromBucket.fetch(new Request(`http://dts.test${path}`)),
      fromDisk.fetch(new Request(`http://dts.test${path}`)),
    ]);
    expect(a.status, path).toBe(b.status);
    expect(a.headers.get("Content-Type"), path).toBe(b.headers.get("Content-Type"));
    expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer())), path).toBe(true);
  }
}

async function passage(prefix: string, path: string): Promise<string> {
  const app = await bucketApp(s3.store(prefix));
  return (await app.fetch(new Request(`http://dts.test${path}`))).text();
}

describe("dts deploy to an S3-compatible store", () => {
  const dist = () => join(work, "dist");

  it("deploys the tree, then a one-line edit uploads exactly the objects it changed", async () => {
    await build({ corpus, out: dist(), site });
    const first = await deploy({ dist: dist(), store: s3.store("ed"), maxDeletes: 0 });
    const before = await keysOf(dist());
    expect(first.uploaded).toBe(before.size);
    expect(first.switched).toBe(true);
    expect(first.deleted).toBe(0);
    await expectBucketAnswersLike("ed", dist());
    // The same tree again: nothing to do, not even the switch.
    const again = await deploy({ dist: dist(), store: s3.store("ed"), maxDeletes: 0 });
    expect([again.uploaded, again.records.length, again.deleted, again.unchanged]).toEqual([0, 0, 0, before.size]);

    const file = join(corpus, CATULLUS_FILE);
    writeFileSync(file, readFileSync(file, "utf8").replace("Vivamus, mea Lesbia, atque amemus,", "Vivamus, mea Lesbia, atque amemus!"));
    await build({ corpus, out: dist(), site });
    const after = await keysOf(dist());
    const changed = [...after].filter((k) => !before.has(k)).sort();
    const gone = [...before].filter((k) => !after.has(k));
    const mark = s3.events.length;
    // Listed 25 objects a page: the continuation the store hands back is followed.
    const dry = await deploy({ dist: dist(), store: s3.store("ed", 25), maxDeletes: 100, dryRun: true });
    expect(s3.events.length).toBe(mark);
    expect(dry.uploads.sort()).toEqual(changed);
    const second = await deploy({ dist: dist(), store: s3.store("ed", 25), maxDeletes: 100 });
    expect(second.uploads.sort()).toEqual(changed);
    expect(second.uploaded).toBeLessThan(before.size / 4);
    expect(second.unchanged).toBe(after.size - changed.length);
    // s3rver's side: those objects, then the listing and the switch, and nothing else.
    const puts = putsUnder("ed", mark);
    expect(puts.slice(0, -2).sort()).toEqual(changed);
    expect(puts.slice(-2)).toEqual([second.records[0], SWITCH_KEY]);
    expect(second.deleted).toBe(gone.length + 1);
    const remote = (await s3.store("ed").list()).map((o) => o.key);
    expect(remote.filter((k) => !k.startsWith("_dts/")).sort()).toEqual([...after].sort());
    expect(await passage("ed", doc(CATULLUS, "&ref=1"))).toContain("atque amemus!");
    await expectBucketAnswersLike("ed", dist());
  });

  it("refuses deletions beyond --max-deletes before writing anything, and makes them when forced", async () => {
    rmSync(join(corpus, CATULLUS_FILE));
    await build({ corpus, out: dist(), site });
    const mark = s3.events.length;
    const listed = (await s3.store("ed").list()).length;
    await expect(deploy({ dist: dist(), store: s3.store("ed"), maxDeletes: 2 })).rejects.toThrow(
      /more than --max-deletes 2.*nothing written/,
    );
    expect(s3.events.length).toBe(mark);
    expect((await s3.store("ed").list()).length).toBe(listed);
    expect(await passage("ed", doc(CATULLUS, "&ref=1"))).toContain("atque amemus!");
    const forced = await deploy({ dist: dist(), store: s3.store("ed"), maxDeletes: 2, forceDeletes: true });
    expect(forced.deleted).toBeGreaterThan(2);
    const remote = (await s3.store("ed").list()).map((o) => o.key).sort();
    expect(remote).toEqual([...(await keysOf(dist())), ...forced.records].sort());
    expect((await (await bucketApp(s3.store("ed"))).fetch(new Request(`http://dts.test${doc(CATULLUS)}`))).status).toBe(404);
    await expectBucketAnswersLike("ed", dist(), [...STORED_REQUESTS, doc(CATULLUS)]);
  });

  it("leaves the previous version served when a deploy is killed midway, and resumes where it stopped", async () => {
    const a = join(work, "a");
    const b = join(work, "b");
    await build({ corpus: EMBEDDED, out: a, site });
    // Another site URL: nearly every object differs.
    const other = makeSite({ siteUrl: "http://other.test", apis: ["1-draft2", "1.0"] });
    await build({ corpus: EMBEDDED, out: b, site: other });
    await deploy({ dist: a, store: s3.store("kill"), maxDeletes: 0 });
    const served = await s3.store("kill").get(SWITCH_KEY);

    const mark = s3.events.length;
    const child: ChildProcess = spawn(
      process.execPath,
      [
        join(PROJECT, "bin/dts.js"),
        "deploy",
        "--dist",
        b,
        "--to",
        `s3://${BUCKET}/kill`,
        "--endpoint",
        s3.endpoint,
        "--concurrency",
        "1",
        "--max-deletes",
        "1000",
      ],
      {
        env: {
          ...process.env,
          AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
          AWS_REGION: "us-east-1",
        },
        stdio: "ignore",
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    s3.onEvent(() => {
      if (putsUnder("kill", mark).length >= 5) child.kill("SIGKILL");
    });
    expect(await exited).toBe(null);
    const put = putsUnder("kill", mark);
    expect(put.length).toBeGreaterThanOrEqual(5);
    expect(put).not.toContain(SWITCH_KEY);
    expect(await s3.store("kill").get(SWITCH_KEY)).toEqual(served);
    await expectBucketAnswersLike("kill", a);

    const resumed = await deploy({ dist: b, store: s3.store("kill"), maxDeletes: 1000 });
    const total = (await keysOf(b, other)).size;
    expect(resumed.uploaded + resumed.unchanged).toBe(total);
    // What the killed run put is not put again.
    for (const key of put) expect(resumed.uploads).not.toContain(key);
    expect(resumed.switched).toBe(true);
    await expectBucketAnswersLike("kill", b);
  });

  it("dts deploy on the command line: a dry run lists each change, a refusal exits 1 and says why", async () => {
    const out = join(work, "cli");
    await build({ corpus: EMBEDDED, out, site });
    const env = {
      ...process.env,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    };
    const dts = (args: string[]) =>
      spawnSync(
        process.execPath,
        [join(PROJECT, "bin/dts.js"), "deploy", "--dist", out, "--to", `s3://${BUCKET}/cli`, "--endpoint", s3.endpoint, ...args],
        { env, encoding: "utf8" },
      );
    const mark = s3.events.length;
    const dry = dts(["--dry-run"]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^\+ _site\.json\.[0-9a-f]{20}$/m);
    expect(dry.stdout).toMatch(/^\+ _dts\/current\.json$/m);
    expect(dry.stdout).toMatch(
      /dts deploy: s3:\/\/dts\/cli\/: would upload \d+ \(.*\), 0 unchanged .* would delete 0; would switch \(nothing\) -> [0-9a-f]{20}/,
    );
    expect(s3.events.length).toBe(mark);
    const real = dts(["--json"]);
    expect(real.status, real.stderr).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ switched: true, unchanged: 0, deleted: 0 });
    // A stray object under the prefix is more than --max-deletes 0 allows.
    await s3.store("cli").put("stray.txt", new Uint8Array([1]), {
      contentType: "text/plain",
      cacheControl: "no-cache",
      md5: "55a54008ad1ba589aa210d2629c1df41",
    });
    const refused = dts(["--max-deletes", "0"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/holds 1 object the new tree does not name, more than --max-deletes 0/);
    expect(dts(["--force-deletes"]).status).toBe(0);
    expect((await s3.store("cli").list()).map((o) => o.key)).not.toContain("stray.txt");
  });

  it("serves the DTS 1.0 static profile from the bucket itself, each URL with its Content-Type", async () => {
    const siteUrl = `${s3.endpoint}/${BUCKET}/pages`;
    const staticSite = makeSite({ siteUrl, apis: ["1.0"], staticPaths: true });
    const out = join(work, "static");
    await build({ corpus: EMBEDDED, out, site: staticSite });
    const report = await deploy({ dist: out, store: s3.store("pages"), maxDeletes: 0, staticOnly: true });
    const remote = await s3.store("pages").list();
    // Only the profile's files (and the deploy's records): no manifest, pack or catalogue.
    expect(remote.filter((o) => !o.key.startsWith("api/dts/v1/") && !o.key.startsWith("_dts/"))).toEqual([]);
    expect(report.uploaded).toBe(remote.length - 2);
    const walked = await walkV1(`${siteUrl}/api/dts/v1/index.jsonld`, { ranges: false, get: fetchAnswer });
    expect(walked.resources.length).toBeGreaterThan(4);
    expect(walked.answers.length).toBeGreaterThan(100);
  });
});
