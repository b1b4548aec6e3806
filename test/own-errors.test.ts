// Errors a server produces before the API sees the request (a malformed request, headers or a
// URL over its buffers, a body over the limit, dts serve down): answered in the API's own error
// format (XML for Document, Hydra JSON for the rest) with CORS headers, by dts serve itself and
// by nginx running the generated rules. Their own pages are bodiless or HTML, without CORS.

import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { DEFAULT_MAX_BODY } from "../builder/wire.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { documentPath, GEORGICS, GEORGICS_FILE } from "./helpers/embedded.js";
import { freePort } from "./helpers/hosts-conformance.js";
import { NGINX, type RunningNginx, startNginx } from "./helpers/nginx.js";
import { exchange, type RawAnswer } from "./helpers/raw-http.js";
import { EMBEDDED } from "./helpers/tree.js";
import { fragment, TOKEN } from "./helpers/write-server.js";

const request = (method: string, path: string, headers: Record<string, string> = {}): string =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;

/** Expects the API's error: its status in the body, the endpoint's format, CORS headers. */
function expectApiError(a: RawAnswer, status: number, format: "xml" | "json"): void {
  expect(a.status).toBe(status);
  expect(a.headers["access-control-allow-origin"]).toBe("*");
  expect(a.headers["access-control-expose-headers"]).toContain("Link");
  if (format === "xml") {
    expect(a.headers["content-type"]).toMatch(/^application\/tei\+xml/);
    expect(a.body).toMatch(new RegExp(`^<\\?xml[^>]*\\?>\\s*<error xmlns="https://w3id.org/dts/api" statusCode="${status}">`));
    expect(a.body).toMatch(/<description>[^<]{20,}<\/description>/);
  } else {
    expect(a.headers["content-type"]).toMatch(/^application\/ld\+json/);
    const body = JSON.parse(a.body);
    expect(body).toMatchObject({ "@type": "Status", statusCode: status });
    expect(body.description.length).toBeGreaterThan(20);
  }
}

describe("errors before the app, and limits, through each server", () => {
  let work: string;
  let corpus: string;
  let dist: string;
  let upstream: RunningServer;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-own-errors-"));
    chmodSync(work, 0o755);
    corpus = join(work, "corpus");
    dist = join(work, "dist");
    cpSync(EMBEDDED, corpus, { recursive: true });
    const site = makeSite();
    await build({ corpus, out: dist, site, hosts: { hosts: ["nginx"] } });
    upstream = await startServer({ dist, site, port: 0, host: "127.0.0.1", corpus, token: TOKEN });
  });

  afterAll(async () => {
    await upstream?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe("dts serve", () => {
    it("headers over Node's 16 KiB: 431 in the Document endpoint's XML, with CORS", async () => {
      const a = await exchange(upstream.url, request("GET", documentPath(`id=${GEORGICS}&ref=1.1`), { Cookie: "c".repeat(20_000) }));
      expectApiError(a, 431, "xml");
      expect(a.headers.connection).toBe("close");
    });

    it("headers over the limit on a Collection URL: 431 as Hydra JSON", async () => {
      expectApiError(await exchange(upstream.url, request("GET", "/api/dts/collection", { "X-Big": "x".repeat(20_000) })), 431, "json");
    });

    it("a malformed header line: 400 in the API's format, naming no internals beyond the parser's code", async () => {
      const a = await exchange(upstream.url, "GET /api/dts/collection HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n");
      expectApiError(a, 400, "json");
      expect(a.body).not.toMatch(/at .*\.js:\d+/);
    });

    it("the server still answers after those", async () => {
      const r = await fetch(upstream.url + "/api/dts/collection");
      expect(r.status).toBe(200);
    });
  });

  describe.skipIf(!NGINX)("nginx with the generated rules", () => {
    let nginx: RunningNginx;
    let example: RunningNginx;
    let downstreamless: RunningNginx;

    beforeAll(async () => {
      nginx = await startNginx(join(work, "n1"), dist, upstream.url);
      example = await startNginx(join(work, "n2"), dist, upstream.url, { example: true });
      // An upstream nothing listens on: dts serve is down.
      downstreamless = await startNginx(join(work, "n3"), dist, `http://127.0.0.1:${await freePort()}`);
    });

    afterAll(async () => {
      await Promise.all([nginx, example, downstreamless].map((n) => n?.stop()));
    });

    it("the rules pass a write body up to dts serve's --max-body (nginx's own default is 1 MiB): a 1.5 MB PUT is saved", async () => {
      const text = "arma virumque cano ".repeat(80_000);
      const r = await fetch(nginx.url + documentPath(`id=${GEORGICS}&ref=1.3`), {
        method: "PUT",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/tei+xml" },
        body: fragment(`<l n="3">${text}</l>`),
      });
      expect(r.status).toBe(200);
      expect(readFileSync(join(corpus, GEORGICS_FILE), "utf8")).toContain(text);
    });

    it("a body declared over the limit: nginx's 413 in the Document endpoint's XML, with CORS, before the body is read", async () => {
      const a = await exchange(
        nginx.url,
        request("PUT", documentPath(`id=${GEORGICS}&ref=1.3`), {
          Authorization: `Bearer ${TOKEN}`,
          "Content-Type": "application/tei+xml",
          "Content-Length": String(DEFAULT_MAX_BODY + 1),
        }),
      );
      expectApiError(a, 413, "xml");
      expect(a.body).toContain(`(${DEFAULT_MAX_BODY} bytes)`);
    });

    it("headers over nginx's buffers: 431 (not nginx's HTML 400) in the endpoint's format", async () => {
      expectApiError(
        await exchange(nginx.url, request("GET", documentPath(`id=${GEORGICS}&ref=1.1`), { Cookie: "c".repeat(20_000) })),
        431,
        "xml",
      );
      expectApiError(await exchange(nginx.url, request("GET", "/api/dts/navigation?id=x", { Cookie: "c".repeat(20_000) })), 431, "json");
    });

    it("a request line over nginx's buffers: 414 as Hydra JSON", async () => {
      expectApiError(await exchange(nginx.url, request("GET", `/api/dts/collection?id=${"a".repeat(20_000)}`)), 414, "json");
    });

    it("a malformed request: 400 in the API's format", async () => {
      expectApiError(await exchange(nginx.url, "GET /api/dts/collection HTTP/1.1\r\nHost: x\r\nBad\0Header: y\r\n\r\n"), 400, "json");
    });

    it("dts serve down: 502 in the endpoint's format for what the tree does not hold; stored answers still served", async () => {
      expectApiError(await exchange(downstreamless.url, request("GET", documentPath(`id=${GEORGICS}&start=1.1&end=1.2`))), 502, "xml");
      expectApiError(await exchange(downstreamless.url, request("GET", "/api/dts/navigation?id=nothing-here")), 502, "json");
      expect((await fetch(downstreamless.url + documentPath(`id=${GEORGICS}&ref=1.1`))).status).toBe(200);
    });

    it("the example site runs as generated (no root needed): the API and the reader page answer, any other path is the API's 404", async () => {
      expect((await fetch(example.url + "/api/dts/collection")).status).toBe(200);
      const page = await fetch(example.url + "/");
      expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
      expectApiError(await exchange(example.url, request("GET", "/index.html")), 404, "json");
      expectApiError(await exchange(example.url, request("GET", "/_catalog.json")), 404, "json");
    });
  });
});

describe("one sentence for one fault, whoever answers", () => {
  let work: string;
  let server: RunningServer;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-messages-"));
    const corpus = join(work, "corpus");
    cpSync(EMBEDDED, corpus, { recursive: true });
    const site = makeSite();
    server = await startServer({ dist: join(work, "dist"), site, port: 0, host: "127.0.0.1", corpus, token: TOKEN });
  });
  afterAll(async () => {
    await server?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("an unknown id: Document, Navigation and a write say the same sentence", async () => {
    const xmlDescription = (body: string): string | undefined =>
      /<description>([^<]*)<\/description>/.exec(body)?.[1].replace(/&quot;/g, '"');
    const read = await exchange(server.url, request("GET", documentPath("id=nothing&ref=1")));
    const navigation = await exchange(server.url, request("GET", "/api/dts/navigation?id=nothing"));
    const write = await fetch(server.url + documentPath("id=nothing&ref=1"), {
      method: "DELETE",
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const sentences = [xmlDescription(read.body), JSON.parse(navigation.body).description, xmlDescription(await write.text())];
    expect([read.status, navigation.status, write.status]).toEqual([404, 404, 404]);
    expect(sentences[0]).toContain('"nothing"');
    expect(new Set(sentences).size).toBe(1);
  });

  it("a path outside the API: the same sentence for a read and a write", async () => {
    const read = await exchange(server.url, request("GET", "/api/dts/elsewhere"));
    const write = await exchange(server.url, request("POST", "/api/dts/elsewhere", { "Content-Length": "0" }));
    expect([read.status, write.status]).toEqual([404, 404]);
    expect(JSON.parse(write.body).description).toBe(JSON.parse(read.body).description);
  });
});

describe("a tree the server cannot read (a corrupted catalogue)", () => {
  let work: string;
  let server: RunningServer;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-corrupt-"));
    const dist = join(work, "dist");
    const site = makeSite();
    await build({ corpus: EMBEDDED, out: dist, site });
    writeFileSync(join(dist, "_catalog.json"), "{ not json");
    server = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("answers 500 in the endpoint's format, with CORS and no stack trace", async () => {
    const collection = await exchange(server.url, request("GET", "/api/dts/collection?id=nothing"));
    expectApiError(collection, 500, "json");
    const document = await exchange(server.url, request("GET", documentPath("id=nothing&start=1&end=2")));
    expectApiError(document, 500, "xml");
    for (const a of [collection, document]) expect(a.body).not.toMatch(/at .*\.js:\d+|SyntaxError/);
  });
});
