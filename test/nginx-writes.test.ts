// One ETag policy across hosts: a client that reads through the generated nginx rules (nginx
// sends the stored file itself, with its own ETag) and writes through them (nginx passes
// writes to dts serve) with If-Match gets no spurious 412, and a stale tag still gets 412.

import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { documentPath, GEORGICS, GEORGICS_FILE } from "./helpers/embedded.js";
import { NGINX, type RunningNginx, startNginx } from "./helpers/nginx.js";
import { copyEmbeddedWithLargeGeorgics } from "./helpers/tree.js";
import { fragment, TOKEN } from "./helpers/write-server.js";

describe.skipIf(!NGINX)("If-Match through nginx", () => {
  let work: string;
  let corpus: string;
  let upstream: RunningServer;
  let nginx: RunningNginx;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-nginx-writes-"));
    chmodSync(work, 0o755);
    corpus = join(work, "corpus");
    const dist = join(work, "dist");
    copyEmbeddedWithLargeGeorgics(corpus);
    const site = makeSite();
    await build({ corpus, out: dist, site, hosts: { hosts: ["nginx"], compress: true } });
    upstream = await startServer({ dist, site, port: 0, host: "127.0.0.1", corpus, token: TOKEN });
    nginx = await startNginx(work, dist, upstream.url);
  });

  afterAll(async () => {
    await nginx?.stop();
    await upstream?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const write = (method: string, path: string, body: string | undefined, ifMatch: string): Promise<Response> =>
    fetch(nginx.url + path, {
      method,
      body,
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/tei+xml", "If-Match": ifMatch },
    });
  const line = (n: number, text: string): string => fragment(`<l n="${n}">${text}</l>`);

  it("nginx and dts serve send the same strong ETag for a stored passage", async () => {
    const a = await fetch(nginx.url + documentPath(`id=${GEORGICS}&ref=1.3`));
    const b = await fetch(upstream.url + documentPath(`id=${GEORGICS}&ref=1.3`));
    expect(a.headers.get("etag")).toMatch(/^"[0-9a-f]{24}"$/);
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
  });

  it("a document read through nginx's gzip sibling, then a POST with its tag: accepted", async () => {
    const gz = await fetch(nginx.url + documentPath(`id=${GEORGICS}`), { headers: { "Accept-Encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const tag = gz.headers.get("etag")!;
    const r = await write("POST", documentPath(`id=${GEORGICS}&after=1.3`), line(900, "hinc canere incipiam, Maecenas."), tag);
    expect(r.status).toBe(201);
  });

  it("a passage read through nginx, saved with If-Match through nginx: 200; the stale tag then 412", async () => {
    const read = await fetch(nginx.url + documentPath(`id=${GEORGICS}&ref=1.3`));
    const tag = read.headers.get("etag")!;
    const text = /<l n="3">([^<]*)<\/l>/.exec(await read.text())![1];
    const first = await write("PUT", documentPath(`id=${GEORGICS}&ref=1.3`), line(3, `${text} (first)`), tag);
    expect(first.status).toBe(200);
    const now = await fetch(nginx.url + documentPath(`id=${GEORGICS}&ref=1.3`));
    expect(await now.text()).toContain("(first)");
    // The tree was built with --compress: no stale .gz sibling is served in place of the new file.
    const zipped = await fetch(nginx.url + documentPath(`id=${GEORGICS}`), { headers: { "Accept-Encoding": "gzip" } });
    expect(await zipped.text()).toContain("(first)");
    expect(now.headers.get("etag")).toBe(first.headers.get("etag"));
    const stale = await write("PUT", documentPath(`id=${GEORGICS}&ref=1.3`), line(3, `${text} (second)`), tag);
    expect(stale.status).toBe(412);
    expect(readFileSync(join(corpus, GEORGICS_FILE), "utf8")).toContain("(first)");
    expect(readFileSync(join(corpus, GEORGICS_FILE), "utf8")).not.toContain("(second)");
  });
});
