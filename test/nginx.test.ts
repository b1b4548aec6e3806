// A real nginx serving the embedded corpus with the rules `dts build --target nginx --compress`
// writes, and `dts serve` as its upstream: every answer must equal `dts serve`'s own, the
// stored ones must come from files (they still answer with the upstream stopped), and no
// request reaches a file outside the tree.

import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { CATULLUS, doc, documentPath, GEORGICS } from "./helpers/embedded.js";
import { COMPUTED_REQUESTS, ESCAPE_REQUESTS, expectSameAnswer, rawRequest, STORED_REQUESTS } from "./helpers/hosts-conformance.js";
import { NGINX, type RunningNginx, startNginx } from "./helpers/nginx.js";
import { copyEmbeddedWithLargeGeorgics, TEST_SITE_URL } from "./helpers/tree.js";

if (!NGINX) console.warn("nginx is not installed (apt-get install nginx-light): skipping the nginx integration test");

describe.skipIf(!NGINX)("nginx with the generated rules", () => {
  let work: string;
  let dist: string;
  let upstream: RunningServer;
  let nginx: RunningNginx;
  let nginxUrl: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-nginx-"));
    // nginx's workers may run as another user: the tree must be readable by them.
    chmodSync(work, 0o755);
    dist = join(work, "dist");
    const site = makeSite({ siteUrl: TEST_SITE_URL });
    // The Georgics made large enough for its whole document to lie alone in its file, with siblings.
    const corpus = copyEmbeddedWithLargeGeorgics(join(work, "corpus"));
    await build({ corpus, out: dist, site, hosts: { hosts: ["nginx"], compress: true } });
    upstream = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
    nginx = await startNginx(work, dist, upstream.url);
    nginxUrl = nginx.url;
  });

  afterAll(async () => {
    await nginx?.stop();
    await upstream?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("gives the stored responses the same status, headers and bytes as dts serve", async () => {
    for (const path of STORED_REQUESTS) await expectSameAnswer(upstream.url, nginxUrl, path);
  });

  it("gives the computed ones (ranges, paged navigation, errors, other spellings) the same", async () => {
    for (const path of COMPUTED_REQUESTS) await expectSameAnswer(upstream.url, nginxUrl, path);
  });

  it("answers HEAD, OPTIONS and writes as dts serve does", async () => {
    for (const path of STORED_REQUESTS.slice(0, 8)) await expectSameAnswer(upstream.url, nginxUrl, path, "HEAD");
    await expectSameAnswer(upstream.url, nginxUrl, "/api/dts/document?id=x", "OPTIONS");
    await expectSameAnswer(upstream.url, nginxUrl, "/api/dts/document?id=x&ref=1", "PUT");
    await expectSameAnswer(upstream.url, nginxUrl, "/api/dts/collection", "DELETE");
  });

  it("serves the reader page at / and its two files as dts serve does, with its policy, and no other file of the root", async () => {
    for (const path of ["/", "/dts-reader.js", "/dts-reader.css"]) {
      await expectSameAnswer(upstream.url, nginxUrl, path);
      const r = await rawRequest(nginxUrl, path);
      expect(r.status, path).toBe(200);
      expect(r.headers["content-security-policy"], path).toMatch(/^default-src 'none'; script-src 'self';/);
      expect(r.headers["x-content-type-options"], path).toBe("nosniff");
    }
    for (const path of ["/index.html", "/_catalog.json", "/_site.json"]) expect((await rawRequest(nginxUrl, path)).status, path).toBe(404);
  });

  it("never serves a file outside the tree, nor the tree's data files", async () => {
    const passwd = readFileSync("/etc/passwd", "utf8").slice(0, 12);
    const catalog = readFileSync(join(dist, "_catalog.json"), "utf8").slice(0, 30);
    for (const path of ESCAPE_REQUESTS) {
      const r = await rawRequest(nginxUrl, path);
      expect([400, 404], `${path}: status`).toContain(r.status);
      const body = r.body.toString("utf8");
      expect(body, path).not.toContain(passwd);
      expect(body, path).not.toContain(catalog);
      if (path.startsWith("/api/dts") && !path.includes("..") && !path.includes("%2e%2e/")) {
        await expectSameAnswer(upstream.url, nginxUrl, path);
      }
    }
  });

  it("sends the precompressed siblings to clients that accept them", async () => {
    const path = documentPath(`id=${GEORGICS}`);
    const plain = await rawRequest(nginxUrl, path);
    const gz = await rawRequest(nginxUrl, path, { headers: { "Accept-Encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.link).toBe(plain.headers.link);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    // dts serve prefers brotli when it is accepted too.
    const br = await rawRequest(upstream.url, path, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  it("answers If-None-Match with the stored response's tag (dts serve's) by 304, without a body", async () => {
    const path = documentPath(`id=${GEORGICS}&ref=1.4`);
    const tag = (await rawRequest(upstream.url, path)).headers.etag as string;
    const viaNginx = await rawRequest(nginxUrl, path);
    expect(viaNginx.headers.etag).toBe(tag);
    const again = await rawRequest(nginxUrl, path, { headers: { "If-None-Match": tag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await rawRequest(nginxUrl, path, { headers: { "If-None-Match": '"other"' } })).status).toBe(200);
  });

  it("serves the stored responses from files: they still answer with dts serve stopped", async () => {
    const answers = new Map<string, string>();
    for (const path of STORED_REQUESTS) answers.set(path, (await rawRequest(nginxUrl, path)).body.toString("utf8"));
    await upstream.close();
    for (const path of STORED_REQUESTS) {
      const r = await rawRequest(nginxUrl, path);
      expect(r.status, path).toBe(path.includes("phi0914") ? 404 : 200);
      expect(r.body.toString("utf8"), path).toBe(answers.get(path));
    }
    // Percent-encoded and plain spellings of one query reach the same file.
    const plain = await rawRequest(nginxUrl, documentPath(`id=${GEORGICS}&ref=1.4`));
    const encoded = await rawRequest(nginxUrl, doc(GEORGICS, "&ref=1.4"));
    expect(plain.status).toBe(200);
    expect(encoded.body.equals(plain.body)).toBe(true);
    // What only dts serve computes is not answered from the tree.
    expect((await rawRequest(nginxUrl, documentPath(`id=${CATULLUS}&start=4&end=6`))).status).toBe(502);
  });
});
