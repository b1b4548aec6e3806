// The reader's response cache is bounded whatever clients send: it is keyed by the encodings a
// client accepts, never by the raw Accept-Encoding header (issue 8, finding 1).

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentPath, GEORGICS, navigationPath } from "./helpers/embedded.js";
import { buildTree, EMBEDDED, PROJECT, type ServedTree, serveCorpus } from "./helpers/tree.js";

const PATHS = [documentPath(`id=${GEORGICS}&ref=1.2`), documentPath(`id=${GEORGICS}&ref=1.3`), navigationPath(`id=${GEORGICS}`)];
/** A distinct, large Accept-Encoding, as in the attack: `gzip, x-<n>-aaaa...`. */
const acceptEncoding = (n: number, size: number): string => `gzip, x-${n}-${"a".repeat(size)}`;

/** Sends `count` requests, `parallel` at a time. */
async function flood(base: string, count: number, size: number, parallel = 16): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const n = next++;
      const r = await fetch(base + PATHS[n % PATHS.length], { headers: { "Accept-Encoding": acceptEncoding(n, size) } });
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

describe("the response cache", () => {
  let tree: ServedTree;
  beforeAll(async () => {
    tree = await serveCorpus(EMBEDDED);
  });
  afterAll(async () => {
    await tree?.close();
  });

  it("holds one entry per path and set of accepted encodings, however many headers differ", async () => {
    await flood(tree.server.url, 600, 100);
    for (const ae of ["", "gzip", "br", "gzip, br", "identity", "br;q=1, gzip;q=0.5"]) {
      for (const p of PATHS) await (await tree.fetch(p, { headers: { "Accept-Encoding": ae } })).arrayBuffer();
    }
    const { entries, bytes } = tree.server.reader.cacheStats;
    // Per path: nothing, gzip, br, or both accepted.
    expect(entries).toBeLessThanOrEqual(PATHS.length * 4);
    expect(entries).toBeGreaterThanOrEqual(PATHS.length);
    expect(bytes).toBeGreaterThan(0);
  });
});

describe("dts serve under distinct Accept-Encoding values", () => {
  let dist: string;
  let child: ChildProcess;
  let base: string;
  beforeAll(async () => {
    ({ dist } = await buildTree(EMBEDDED));
    child = spawn(process.execPath, [join(PROJECT, "bin/dts.js"), "serve", "--dist", dist, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    base = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /(http:\/\/[^/\s]+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`dts serve exited (${code}): ${out}`)));
    });
  });
  afterAll(() => {
    child?.kill("SIGTERM");
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  const rss = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) * 1024;

  it.skipIf(process.platform !== "linux")(
    "grows by less than 20 MB over 10,000 of them",
    async () => {
      // Warm up (compilation, first reads, sockets) before the baseline.
      await flood(base, 300, 8000);
      const before = rss();
      await flood(base, 10_000, 8000);
      const grown = rss() - before;
      expect(grown, `RSS grew by ${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(20 * 1024 * 1024);
    },
    120_000,
  );
});
