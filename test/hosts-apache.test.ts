// A real Apache (Debian's apache2) serving the embedded corpus, built with one file per body
// (`--layout files`), through the config snippet and RewriteMap program `dts build --target
// apache` writes, and `dts serve` as the upstream of what the tree does not hold: the same
// conformance suite as `dts serve`. The map program's line protocol is tested on its own.

import { spawn } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { readEntry } from "../builder/tree/folder-store.js";
import { documentFolder } from "../builder/tree/layout.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { APACHE, type RunningApache, startApache } from "./helpers/apache.js";
import { CATULLUS, documentPath, GEORGICS } from "./helpers/embedded.js";
import {
  COMPUTED_REQUESTS,
  ESCAPE_REQUESTS,
  expectSameAnswer,
  freePort,
  rawRequest,
  STORED_REQUESTS,
} from "./helpers/hosts-conformance.js";
import { EMBEDDED, TEST_SITE_URL } from "./helpers/tree.js";

const RULES = "_hosts/apache";
const site = makeSite({ layout: "files", siteUrl: TEST_SITE_URL });
let work: string;
let dist: string;
let upPort: number;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "dts-apache-"));
  // Apache's user (and the map program's) reads the tree through this folder.
  chmodSync(work, 0o755);
  dist = join(work, "dist");
  // The upstream must be known when the rules are written: pick dts serve's port first.
  upPort = await freePort();
  await build({ corpus: EMBEDDED, out: dist, site, hosts: { hosts: ["apache"], upstream: `http://127.0.0.1:${upPort}` } });
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs the map program over `input` and returns its output lines. */
function runMap(input: Buffer): Promise<{ lines: string[]; code: number | null }> {
  return new Promise((resolve, reject) => {
    const map = spawn(process.execPath, [join(dist, RULES, "dts-map.mjs"), dist], { stdio: ["pipe", "pipe", "inherit"] });
    const out: Buffer[] = [];
    map.stdout.on("data", (d: Buffer) => out.push(d));
    map.on("error", reject);
    map.on("close", (code) => {
      const text = Buffer.concat(out).toString("latin1");
      resolve({ lines: text.endsWith("\n") ? text.slice(0, -1).split("\n") : [text], code });
    });
    map.stdin.end(input);
  });
}

describe("the RewriteMap program", () => {
  it("answers every line with one line, in order: a stored file and its headers, or NULL", async () => {
    const passage = documentPath(`id=${GEORGICS}&ref=1.4`);
    const input = [
      `GET ${passage} HTTP/1.1`,
      "garbage",
      `POST ${passage} HTTP/1.1`,
      `GET /api/dts/document?id=${GEORGICS}&ref=\u00e9 HTTP/1.1`,
      "",
      "HEAD /api/dts/collection HTTP/1.1",
      `GET ${documentPath(`id=${CATULLUS}&start=4&end=6`)} HTTP/1.1`,
      "GET /api/dts/_catalog.json HTTP/1.1",
      "GET /api/dts/collection?id=\x01 HTTP/1.1",
      `GET ${"/api/dts/".padEnd(100_000, "x")} HTTP/1.1`,
      "GET /api/dts HTTP/1.1",
    ];
    const { lines, code } = await runMap(Buffer.from(`${input.join("\n")}\n`, "utf8"));
    expect(code).toBe(0);
    expect(lines).toHaveLength(input.length);
    const entry = readEntry(dist, documentFolder(GEORGICS), "r.1.4.xml")!;
    expect(lines[0]).toBe(`xml ${documentFolder(GEORGICS)}/${entry.file} ${entry.etag} ${entry.link}`);
    expect(lines.slice(1, 5)).toEqual(["NULL", "NULL", "NULL", "NULL"]);
    expect(lines[5]).toMatch(/^json collection\/_\/_p\.[0-9a-z]+ "[0-9a-f]{24}" <\/api\/dts\/docs>; rel=/);
    expect(lines.slice(6, 10)).toEqual(["NULL", "NULL", "NULL", "NULL"]);
    expect(lines[10]).toMatch(/^json _p\./);
    // Every file it names is in the tree, alone.
    for (const line of lines.filter((l) => l !== "NULL")) {
      const [, file] = line.split(" ");
      expect(statSync(join(dist, file)).isFile()).toBe(true);
    }
  });

  it("answers NULL to everything when the tree has no settings, and still one line each", async () => {
    const empty = mkdtempSync(join(work, "empty-"));
    const { lines } = await new Promise<{ lines: string[] }>((resolve) => {
      const map = spawn(process.execPath, [join(dist, RULES, "dts-map.mjs"), empty], { stdio: ["pipe", "pipe", "ignore"] });
      let text = "";
      map.stdout.on("data", (d: Buffer) => (text += d.toString()));
      map.on("close", () => resolve({ lines: text.trimEnd().split("\n") }));
      map.stdin.end("GET /api/dts HTTP/1.1\nGET /api/dts/ HTTP/1.1\n");
    });
    expect(lines).toEqual(["NULL", "NULL"]);
  });

  it("reads the tree again after an in-place rebuild (its generation changed)", async () => {
    const corpus = join(work, "corpus");
    cpSync(EMBEDDED, corpus, { recursive: true });
    const live = join(work, "live");
    await build({ corpus, out: live, site, hosts: { hosts: ["apache"] } });
    const map = spawn(process.execPath, [join(live, RULES, "dts-map.mjs"), live], { stdio: ["pipe", "pipe", "inherit"] });
    const answers = createInterface({ input: map.stdout })[Symbol.asyncIterator]();
    const ask = async (line: string): Promise<string> => {
      map.stdin.write(`${line}\n`);
      return (await answers.next()).value as string;
    };
    try {
      const line = `GET ${documentPath(`id=${GEORGICS}&ref=1.4`)} HTTP/1.1`;
      const before = await ask(line);
      const file = join(corpus, "latin/virgil-georgics.xml");
      writeFileSync(file, readFileSync(file, "utf8").replace("sit pecori, apibus", "sit pecori, atque apibus"));
      await build({ corpus, out: live, site, hosts: { hosts: ["apache"] } });
      // The map looks at the tree's generation once a second.
      await new Promise((r) => setTimeout(r, 1100));
      const after = await ask(line);
      expect(after).not.toBe(before);
      const [, path, etag] = after.split(" ");
      expect(etag).toBe(readEntry(live, documentFolder(GEORGICS), "r.1.4.xml")!.etag);
      expect(readFileSync(join(live, path), "utf8")).toContain("atque apibus");
    } finally {
      map.stdin.end();
    }
  });

  it("writes a snippet that does not grow with the corpus, and warns when the tree is packed", async () => {
    const snippet = readFileSync(join(dist, RULES, "dts-apache.conf"), "utf8");
    expect(snippet).not.toContain("phi0690");
    expect(snippet.length).toBeLessThan(8000);
    expect(readdirSync(join(dist, RULES)).sort()).toEqual(["apache.conf.example", "dts-apache.conf", "dts-map.mjs"]);
    const packed = join(work, "packed");
    const report = await build({ corpus: EMBEDDED, out: packed, site: makeSite({ siteUrl: TEST_SITE_URL }), hosts: { hosts: ["apache"] } });
    expect(report.warnings.map((w) => w.message).join("\n")).toMatch(
      /apache: Apache can only send a body alone in its file, so with the packed layout every request goes to dts serve; build with --layout files/,
    );
  });
});

describe.skipIf(!APACHE)("Apache with the generated example site and config snippet", () => {
  let upstream: RunningServer;
  let apache: RunningApache;
  let apacheUrl: string;

  beforeAll(async () => {
    upstream = await startServer({ dist, site, port: upPort, host: "127.0.0.1" });
    apache = await startApache(work, dist);
    apacheUrl = apache.url;
  });

  afterAll(async () => {
    await apache?.stop();
    await upstream?.close().catch(() => undefined);
  });

  it("gives stored and computed answers the same status, headers and bytes as dts serve", async () => {
    try {
      for (const path of [...STORED_REQUESTS, ...COMPUTED_REQUESTS]) await expectSameAnswer(upstream.url, apacheUrl, path);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${apache.log()}`);
    }
  });

  it("serves the reader page at / and its two files as dts serve does, with its policy, and no other file of the root", async () => {
    for (const path of ["/", "/dts-reader.js", "/dts-reader.css"]) {
      await expectSameAnswer(upstream.url, apacheUrl, path);
      const r = await rawRequest(apacheUrl, path);
      expect(r.status, path).toBe(200);
      expect(r.headers["content-security-policy"], path).toMatch(/^default-src 'none'; script-src 'self';/);
    }
    for (const path of ["/index.html", "/_catalog.json"]) expect((await rawRequest(apacheUrl, path)).status, path).toBe(404);
  });

  it("answers HEAD, OPTIONS and writes as dts serve does", async () => {
    for (const path of STORED_REQUESTS.slice(0, 8)) await expectSameAnswer(upstream.url, apacheUrl, path, "HEAD");
    await expectSameAnswer(upstream.url, apacheUrl, "/api/dts/document?id=x", "OPTIONS");
    await expectSameAnswer(upstream.url, apacheUrl, "/api/dts/document?id=x&ref=1", "PUT");
    await expectSameAnswer(upstream.url, apacheUrl, documentPath(`id=${GEORGICS}&ref=1.4`), "POST");
    // The example site sends any other path to dts serve too: the API's 404.
    await expectSameAnswer(upstream.url, apacheUrl, "/elsewhere?x=1");
  });

  it("sends a stored passage with the ETag dts serve sends, the manifest's", async () => {
    const path = documentPath(`id=${GEORGICS}&ref=1.4`);
    const [served, proxied] = await Promise.all([rawRequest(apacheUrl, path), rawRequest(upstream.url, path)]);
    const entry = readEntry(dist, documentFolder(GEORGICS), "r.1.4.xml")!;
    expect(served.headers.etag).toBe(proxied.headers.etag);
    expect(served.headers.etag).toBe(entry.etag);
  });

  it("never serves a file outside the tree, nor the tree's data files, manifests, packs or rules", async () => {
    const catalog = readFileSync(join(dist, "_catalog.json"), "utf8").slice(0, 30);
    const rootPack = readdirSync(dist).find((name) => name.startsWith("_p."))!;
    const direct = [
      "/api/dts/_manifest.json",
      "/api/dts/collection/_/_manifest.json",
      `/api/dts/${rootPack}`,
      `/api/dts/${RULES}/dts-apache.conf`,
      `${dist}/_catalog.json`,
      `${dist}/${rootPack}`,
    ];
    for (const path of [...ESCAPE_REQUESTS, ...direct]) {
      const r = await rawRequest(apacheUrl, path);
      expect([400, 403, 404], `${path}: status`).toContain(r.status);
      const body = r.body.toString("utf8");
      expect(body, path).not.toMatch(/root:x:0:0|RewriteMap|"v":2/);
      expect(body, path).not.toContain(catalog);
    }
  });

  it("serves the stored responses from files: they still answer with dts serve stopped", async () => {
    await upstream.close();
    // Livy's stored answers are not 200s (no text): dts serve sends those.
    for (const path of STORED_REQUESTS.filter((p) => !p.includes("phi0914"))) {
      const r = await rawRequest(apacheUrl, path);
      expect(r.status, path).toBe(200);
    }
    const range = await rawRequest(apacheUrl, documentPath(`id=${CATULLUS}&start=4&end=6`));
    expect(range.status).toBe(503);
  });
});
