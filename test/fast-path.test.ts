// The Node fast path (server/fast-path.ts) answers a stored GET or HEAD already in memory without
// the app: its answer must be the app's byte for byte, status line, headers (names, values,
// order) and body, but for the Date. The first request of each kind goes through the app (and
// fills the memory), the second is answered by the fast path: both are compared.

import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite, type Site } from "../builder/site.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { CAESAR, GEORGICS, ODYSSEY } from "./helpers/embedded.js";
import { EMBEDDED, TEST_SITE_URL } from "./helpers/tree.js";
import { writeTree } from "./helpers/write-server.js";

/** The answer's bytes as sent, with the Date header's value blanked. */
function rawAnswer(base: string, request: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () =>
      resolve(
        Buffer.concat(chunks)
          .toString("latin1")
          .replace(/\r\nDate: [^\r]*/i, "\r\nDate: -"),
      ),
    );
    socket.on("error", reject);
    socket.write(request);
  });
}

const get = (path: string, headers: Record<string, string> = {}, method = "GET"): string =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}Connection: close\r\n\r\n`;

const q = encodeURIComponent;
const PATHS = [
  `/api/dts/document?id=${q(GEORGICS)}&ref=1.1`,
  `/api/dts/document?id=${q(CAESAR)}`,
  `/api/dts/navigation?id=${q(ODYSSEY)}&ref=1`,
  "/api/dts/collection",
  `/api/dts/collection?id=${q(CAESAR)}&nav=parents`,
  "/api/dts",
];

describe("the fast path answers as the app does", () => {
  let dist: string;
  let site: Site;
  let server: RunningServer;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), "dts-fast-"));
    site = makeSite({ siteUrl: TEST_SITE_URL });
    // Precompressed siblings: Accept-Encoding picks another stored answer.
    await build({ corpus: EMBEDDED, out: dist, site, workers: 0, hosts: { compress: true } });
    server = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("GET, HEAD, gzip, and conditional requests (a 304, a tag that does not match): byte for byte", async () => {
    const variants: [Record<string, string>, string][] = [
      [{}, "GET"],
      [{}, "HEAD"],
      [{ "Accept-Encoding": "gzip, br" }, "GET"],
      [{ "If-None-Match": '"nothing"' }, "GET"],
    ];
    let compared = 0;
    for (const path of PATHS) {
      for (const [headers, method] of variants) {
        const before = server.memoryAnswers();
        const cold = await rawAnswer(server.url, get(path, headers, method));
        const warm = await rawAnswer(server.url, get(path, headers, method));
        expect(warm, `${method} ${path} ${JSON.stringify(headers)}`).toBe(cold);
        // The second (and only it) came from memory.
        expect(server.memoryAnswers() - before, `${method} ${path}`).toBeLessThanOrEqual(2);
        expect(server.memoryAnswers() - before, `${method} ${path}`).toBeGreaterThanOrEqual(1);
        compared++;
      }
      // A client revalidating with the tag it was given: 304 from both.
      const etag = /\r\nETag: ([^\r]*)/i.exec(await rawAnswer(server.url, get(path)))?.[1];
      expect(etag, path).toBeDefined();
      const answers = [await rawAnswer(server.url, get(path, { "If-None-Match": etag! }))];
      answers.push(await rawAnswer(server.url, get(path, { "If-None-Match": etag! })));
      expect(answers[0]).toMatch(/^HTTP\/1\.1 304 /);
      expect(answers[1]).toBe(answers[0]);
    }
    expect(compared).toBe(PATHS.length * variants.length);
  });

  it("leaves to the app what it must not answer: computed answers, other spellings, dot segments, other methods", async () => {
    const before = server.memoryAnswers();
    for (const path of [
      `/api/dts/document?id=${q(GEORGICS)}&start=1.1&end=1.2`,
      `/api/dts/./document?id=${q(GEORGICS)}&ref=1.1`,
      `/api/dts/document?id=${q(GEORGICS)}&ref=1.1#x`,
      "/api/dts/nowhere",
    ]) {
      await rawAnswer(server.url, get(path));
      await rawAnswer(server.url, get(path));
    }
    await rawAnswer(server.url, get(PATHS[0], {}, "OPTIONS"));
    expect(server.memoryAnswers()).toBe(before);
    // The same request spelled with an escape is answered by the app, identically.
    const plain = await rawAnswer(server.url, get(PATHS[0]));
    const escaped = await rawAnswer(server.url, get(PATHS[0].replace("ref=1.1", "ref=1%2E1")));
    expect(escaped).toBe(plain);
  });

  it("a root-relative context (no --site-url): the origin of the Host header written in, as the app writes it", async () => {
    const plainDist = mkdtempSync(join(tmpdir(), "dts-fast-rel-"));
    const relative = makeSite();
    await build({ corpus: EMBEDDED, out: plainDist, site: relative, workers: 0 });
    const s = await startServer({ dist: plainDist, site: relative, port: 0, host: "127.0.0.1" });
    const withHost = (host: string): string => `GET /api/dts/collection HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
    try {
      for (const host of ["127.0.0.1", "edition.example:8080", "other.example"]) {
        const before = s.memoryAnswers();
        const cold = await rawAnswer(s.url, withHost(host));
        const warm = await rawAnswer(s.url, withHost(host));
        expect(cold).toContain(`"@context": "http://${host}/api/dts/context.json"`);
        expect(warm, host).toBe(cold);
        expect(s.memoryAnswers() - before, host).toBeGreaterThanOrEqual(1);
      }
      // A Host the URL parser would change (case, the default port): the app's answer, from the app.
      for (const host of ["Edition.Example", "edition.example:80"]) {
        const before = s.memoryAnswers();
        const a = await rawAnswer(s.url, withHost(host));
        const b = await rawAnswer(s.url, withHost(host));
        expect(b, host).toBe(a);
        expect(a).toContain(`"@context": "http://edition.example/api/dts/context.json"`);
        expect(s.memoryAnswers(), host).toBe(before);
      }
    } finally {
      await s.close();
      rmSync(plainDist, { recursive: true, force: true });
    }
  });
});

describe("the fast path on DTS 1.0", () => {
  it("answers stored 1.0 answers of a tree with its site URL as the app does; computes nothing", async () => {
    const dist = mkdtempSync(join(tmpdir(), "dts-fast-v1-"));
    const site = makeSite({ siteUrl: TEST_SITE_URL, apis: ["1-draft2", "1.0"] });
    await build({ corpus: EMBEDDED, out: dist, site, workers: 0 });
    const s = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
    try {
      const stored = [
        `/api/dts/v1/document?resource=${q(GEORGICS)}&ref=1.1`,
        `/api/dts/v1/document?resource=${q(CAESAR)}`,
        `/api/dts/v1/navigation?resource=${q(ODYSSEY)}&down=1`,
        `/api/dts/v1/navigation?resource=${q(ODYSSEY)}&ref=1`,
        "/api/dts/v1/collection",
      ];
      for (const path of stored) {
        for (const method of ["GET", "HEAD"]) {
          const before = s.memoryAnswers();
          const cold = await rawAnswer(s.url, get(path, {}, method));
          const warm = await rawAnswer(s.url, get(path, {}, method));
          expect(cold, path).toMatch(/^HTTP\/1\.1 200 /);
          expect(warm, `${method} ${path}`).toBe(cold);
          expect(s.memoryAnswers() - before, `${method} ${path}`).toBeGreaterThanOrEqual(1);
        }
      }
      // Computed (down=0 is never stored) and not found: the app, both times.
      const before = s.memoryAnswers();
      for (const path of [`/api/dts/v1/navigation?resource=${q(ODYSSEY)}&ref=1.1&down=0`, `/api/dts/v1/document?resource=nothing`]) {
        const a = await rawAnswer(s.url, get(path));
        expect(await rawAnswer(s.url, get(path))).toBe(a);
      }
      expect(s.memoryAnswers()).toBe(before);
    } finally {
      await s.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe("the fast path and writes", () => {
  it("a read after a PUT sees the new passage (the memory is forgotten; a commit in progress sends reads to the app)", async () => {
    const w = await writeTree();
    const url = w.server.url;
    try {
      const path = `/api/dts/document?id=${q(GEORGICS)}&ref=1.1`;
      await rawAnswer(url, get(path));
      const before = w.server.memoryAnswers();
      expect(await rawAnswer(url, get(path))).not.toContain("novus versus");
      expect(w.server.memoryAnswers()).toBe(before + 1);
      const old = await (await w.fetch(path)).text();
      const body = old.replace(/(<l\b[^>]*>)[^<]*(<\/l>)/, "$1novus versus$2");
      expect(body).toContain("novus versus");
      const put = await w.write("PUT", path, body);
      expect(put.status).toBe(200);
      for (let i = 0; i < 2; i++) expect(await rawAnswer(url, get(path))).toContain("novus versus");
      expect(w.server.memoryAnswers()).toBeGreaterThan(before + 1);
    } finally {
      await w.close();
    }
  });
});
