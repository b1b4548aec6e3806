// DTS 1.0 beside 1-draft2: `dts serve` answers every valid 1.0 call (Level 1, ranges too) as
// a 1.0 client reaches it (the templates of the Entry and of each Resource, expanded); the
// stored answers equal the computed ones; a passage is the same bytes in the 1.0 wrapper as in
// the 1-draft2 fragment; the static profile works on plain file servers (Level 0).

import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite, type Site } from "../builder/site.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { CAESAR, CATULLUS, EDGE, GEORGICS, LIVY, ODYSSEY } from "./helpers/embedded.js";
import { PYTHON, startPython } from "./helpers/file-server.js";
import { freePort } from "./helpers/hosts-conformance.js";
import { NGINX, PLAIN_NGINX, startNginx, startPlainNginx } from "./helpers/nginx.js";
import { EMBEDDED, HAS_SHARED, SHARED, SHARED_SKIP } from "./helpers/tree.js";
import { type Answer, expand, fetchAnswer, LD, TEI, walkV1 } from "./helpers/v1-walk.js";

const TEXTS = [GEORGICS, CAESAR, CATULLUS, ODYSSEY, EDGE];

async function buildSite(corpus: string, site: Site): Promise<string> {
  const dist = mkdtempSync(join(tmpdir(), "dts-v1-"));
  await build({ corpus, out: dist, site, workers: 0 });
  return dist;
}

describe("DTS 1.0 on dts serve (Level 1)", () => {
  let dist: string;
  let server: RunningServer;
  beforeAll(async () => {
    // No site URL: the server writes its own origin into the templates.
    dist = await buildSite(EMBEDDED, makeSite({ apis: ["1-draft2", "1.0"] }));
    server = await startServer({ dist, site: makeSite({ apis: ["1-draft2", "1.0"] }), port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("walks every collection, resource, unit, passage and range from the Entry's templates", async () => {
    const walk = await walkV1(`${server.url}/api/dts/v1/`, { ranges: true, get: fetchAnswer });
    expect(walk.resources.sort()).toEqual([...TEXTS, LIVY].sort());
    expect(walk.units).toBe(75);
    expect(walk.ranges).toHaveLength(3 * TEXTS.length);
    // Every URL the templates gave is absolute, on this server.
    for (const a of walk.answers) expect(a.url.startsWith(`${server.url}/api/dts/v1/`)).toBe(true);
  });

  it("answers a range as the units between start and end and their descendants down to down", async () => {
    const r = (q: string): Promise<Answer> =>
      fetchAnswer(`${server.url}/api/dts/v1/navigation?resource=${encodeURIComponent(CAESAR)}&${q}`);
    const all = JSON.parse((await r("down=-1")).body).member as { identifier: string; level: number }[];
    const top = all.filter((u) => u.level === 1).map((u) => u.identifier);
    const plain = JSON.parse((await r(`start=${top[0]}&end=${top[1]}`)).body);
    expect(plain.start.identifier).toBe(top[0]);
    expect(plain.end.identifier).toBe(top[1]);
    expect(plain.member).toBeUndefined();
    const down1 = JSON.parse((await r(`start=${top[0]}&end=${top[1]}&down=1`)).body).member as { identifier: string; level: number }[];
    const i = all.findIndex((u) => u.identifier === top[0]);
    const j = all.findIndex((u) => u.identifier === top[2]);
    expect(down1.map((u) => u.identifier)).toEqual(
      all
        .slice(i, j < 0 ? undefined : j)
        .filter((u) => u.level <= 2)
        .map((u) => u.identifier),
    );
  });

  it("refuses what 1.0 says is a 400 or a 404, in the endpoint's format", async () => {
    const base = `${server.url}/api/dts/v1`;
    const res = `resource=${encodeURIComponent(GEORGICS)}`;
    const cases: [string, number, string][] = [
      ["/navigation", 400, LD],
      [`/navigation?${res}`, 400, LD],
      [`/navigation?${res}&down=0`, 400, LD],
      [`/navigation?${res}&ref=1&start=1&end=2`, 400, LD],
      [`/navigation?${res}&start=1`, 400, LD],
      [`/navigation?${res}&start=1&end=2&down=0`, 400, LD],
      [`/navigation?${res}&down=x`, 400, LD],
      [`/navigation?${res}&ref=99.99`, 404, LD],
      [`/navigation?${res}&ref=1&tree=nosuch`, 404, LD],
      [`/navigation?resource=nosuch&down=1`, 404, LD],
      [`/navigation?${res}&down=1&page=2`, 404, LD],
      ["/document", 400, TEI],
      [`/document?${res}&ref=99`, 404, TEI],
      [`/document?${res}&ref=1&mediaType=text/html`, 404, TEI],
      [`/document?${res}&ref=1&tree=nosuch`, 404, TEI],
      [`/document?${res}&end=2`, 400, TEI],
      ["/collection?id=nosuch", 404, LD],
      ["/collection?nav=sideways", 400, LD],
      ["/collection?page=99", 404, LD],
      [`/navigation/${encodeURIComponent(GEORGICS)};down=1/1`, 404, LD],
      // Names of Object.prototype are no endpoints (a lookup in a plain object would find them).
      ["/constructor", 404, LD],
      ["/toString/x", 404, LD],
      ["/__proto__", 404, LD],
    ];
    for (const [path, status, type] of cases) {
      const a = await fetchAnswer(base + path);
      expect([path, a.status, a.type]).toEqual([path, status, type]);
      if (type === LD) expect(JSON.parse(a.body).description).toMatch(/\w/);
      else expect(a.body).toContain("<description>");
    }
    // With a ref or a range, down=0 and the tree parameter's absence are fine.
    expect((await fetchAnswer(`${base}/navigation?${res}&ref=1&down=0`)).status).toBe(200);
    // The 1-draft2 API is where it was.
    expect((await fetchAnswer(`${server.url}/api/dts/navigation?id=${encodeURIComponent(GEORGICS)}`)).status).toBe(200);
  });

  it("answers the generic XML media types with the same bytes, under that Content-Type (dts-viewer asks for application/xml)", async () => {
    const base = `${server.url}/api/dts/v1/document?resource=${encodeURIComponent(GEORGICS)}`;
    for (const query of ["&ref=1", "&start=1&end=2", ""]) {
      const tei = await fetchAnswer(base + query);
      for (const mediaType of ["application/xml", "text/xml", TEI]) {
        const a = await fetchAnswer(`${base}${query}&mediaType=${encodeURIComponent(mediaType)}`);
        expect([query, a.status, a.type]).toEqual([query, 200, mediaType]);
        expect(a.body).toBe(tei.body);
      }
    }
  });

  it("cuts the same passage bytes into the 1.0 wrapper as into the 1-draft2 fragment", async () => {
    for (const id of TEXTS) {
      const units = JSON.parse(
        (await fetchAnswer(`${server.url}/api/dts/v1/navigation?resource=${encodeURIComponent(id)}&down=-1`)).body,
      ).member;
      for (const { identifier } of units as { identifier: string }[]) {
        const v1 = await fetchAnswer(
          `${server.url}/api/dts/v1/document?resource=${encodeURIComponent(id)}&ref=${encodeURIComponent(identifier)}`,
        );
        const draft = await fetchAnswer(
          `${server.url}/api/dts/document?id=${encodeURIComponent(id)}&ref=${encodeURIComponent(identifier)}`,
        );
        expect(sameInside(v1.body, draft.body), `${id} ${identifier}`).toBe(true);
      }
    }
  });
});

/** Whether two passage bodies differ only in their wrapper element (name and dts namespace). */
function sameInside(v1: string, draft: string): boolean {
  const v1Inner = v1.replace('<dts:wrapper xmlns:dts="https://w3id.org/api/dts#"', "<W").replace("</dts:wrapper>", "</W>");
  const draftInner = draft.replace('<dts:fragment xmlns:dts="https://w3id.org/dts/api#"', "<W").replace("</dts:fragment>", "</W>");
  return v1Inner !== v1 && draftInner !== draft && v1Inner === draftInner;
}

describe("DTS 1.0 stored answers equal computed ones", () => {
  it("for every request the walk makes, with the site URL written in at build time", async () => {
    const port = await freePort();
    const site = makeSite({ apis: ["1.0"], siteUrl: `http://127.0.0.1:${port}` });
    const dist = await buildSite(EMBEDDED, site);
    const stripped = mkdtempSync(join(tmpdir(), "dts-v1-computed-"));
    try {
      let server = await startServer({ dist, site, port, host: "127.0.0.1" });
      const walk = await walkV1(`${site.siteUrl}/api/dts/v1/`, { ranges: true, get: fetchAnswer });
      await server.close();
      // The same tree without its stored 1.0 answers: the server computes every one.
      cpSync(dist, stripped, { recursive: true });
      rmSync(join(stripped, "v1"), { recursive: true });
      server = await startServer({ dist: stripped, site, port, host: "127.0.0.1" });
      try {
        for (const a of walk.answers) {
          const computed = await fetchAnswer(a.url);
          expect([a.url, computed.status, computed.type, computed.body]).toEqual([a.url, a.status, a.type, a.body]);
        }
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dist, { recursive: true, force: true });
      rmSync(stripped, { recursive: true, force: true });
    }
  });
});

describe("the DTS 1.0 static profile (Level 0) on plain file servers", () => {
  let port: number;
  let site: Site;
  let dist: string;
  beforeAll(async () => {
    port = await freePort();
    site = makeSite({ apis: ["1.0"], siteUrl: `http://127.0.0.1:${port}`, staticPaths: true });
    dist = await buildSite(EMBEDDED, site);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  /** The walk every file server must pass: every URL but ranges and down=0 is a file, with the right type; those are 404s. */
  async function walkFiles(): Promise<void> {
    const walk = await walkV1(`${site.siteUrl}/api/dts/v1/index.jsonld`, { ranges: false, get: fetchAnswer });
    expect(walk.resources.sort()).toEqual([...TEXTS, LIVY].sort());
    expect(walk.units).toBe(75);
    for (const a of walk.ranges) expect([a.url, a.status]).toEqual([a.url, 404]);
    // Identifiers and references with `:`, spaces, `;`, `/` and non-ASCII letters were reached as files.
    const edge = walk.answers.filter((a) => a.url.includes(encodeURIComponent(EDGE)));
    expect(edge.some((a) => a.url.includes("%CE%B1"))).toBe(true);
    expect(edge.some((a) => a.url.includes("2.1%2F2"))).toBe(true);
    expect(edge.some((a) => a.url.includes("2.x%3By"))).toBe(true);
  }

  it.skipIf(!PLAIN_NGINX)("answers every template-produced URL on nginx with no rules but two types", async () => {
    const work = mkdtempSync(join(tmpdir(), "dts-v1-nginx-"));
    const nginx = await startPlainNginx(work, dist, port);
    try {
      await walkFiles();
    } finally {
      await nginx.stop();
      rmSync(work, { recursive: true, force: true });
    }
  });

  it.skipIf(!PYTHON)("answers every template-produced URL on python's http.server", async () => {
    const python = await startPython(dist, port);
    try {
      await walkFiles();
    } finally {
      await python.stop();
    }
  });

  it("is answered in full, ranges included, by dts serve on the same tree", async () => {
    const server = await startServer({ dist, site, port, host: "127.0.0.1" });
    try {
      const walk = await walkV1(`${site.siteUrl}/api/dts/v1/index.jsonld`, { ranges: true, get: fetchAnswer });
      expect(walk.ranges.length).toBeGreaterThan(0);
      // The same answers as the files a file server sends.
      // The same answers as the files a file server sends; what has no file is what only a server computes.
      let files = 0;
      for (const a of walk.answers) {
        const file = join(dist, decodeURIComponent(new URL(a.url).pathname));
        if (existsSync(file)) {
          expect(readFileSync(file, "utf8"), a.url).toBe(a.body);
          files++;
        } else expect(walk.ranges.includes(a) || a.url.includes(";down=0"), a.url).toBe(true);
      }
      expect(files).toBeGreaterThan(walk.answers.length / 2);
    } finally {
      await server.close();
    }
  });

  it("names every template's expansion as the file it is", () => {
    const entry = JSON.parse(readFileSync(join(dist, "api/dts/v1/index.jsonld"), "utf8"));
    const url = expand(entry.navigation, { resource: EDGE, ref: "2.α", down: 1 });
    expect(url).toBe(`${site.siteUrl}/api/dts/v1/navigation/urn%3Adts%3Asample%3Aedge%3Aodd%20refs;down=1/2.%CE%B1.jsonld`);
    expect(JSON.parse(readFileSync(join(dist, decodeURIComponent(new URL(url).pathname)), "utf8"))["@id"]).toBe(url);
  });
});

/** A corpus of one document with two citation trees (book/section by default, page:line named "page"). */
function twoTreeCorpus(): string {
  const dir = mkdtempSync(join(tmpdir(), "dts-v1-trees-"));
  writeFileSync(join(dir, "collection.json"), JSON.stringify({ id: "urn:dts:test:trees", title: "Two trees" }));
  writeFileSync(join(dir, "two.json"), JSON.stringify({ id: "urn:dts:test:two", title: "Cited two ways" }));
  writeFileSync(
    join(dir, "two.xml"),
    `<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>Two</title></titleStmt>` +
      `<publicationStmt><p>test</p></publicationStmt><sourceDesc><p>test</p></sourceDesc></fileDesc><encodingDesc>` +
      `<refsDecl n="book-section"><citeStructure unit="book" match="//body/div[@type='book']" use="@n">` +
      `<citeStructure unit="section" match="div[@type='section']" use="@n" delim="."/></citeStructure></refsDecl>` +
      `<refsDecl n="page"><citeStructure unit="page" match="//div[@type='page']" use="@n">` +
      `<citeStructure unit="line" match="l" use="@n" delim=":"/></citeStructure></refsDecl>` +
      `</encodingDesc></teiHeader><text><body>` +
      `<div type="book" n="1"><div type="section" n="1"><div type="page" n="p1"><l n="1">a</l><l n="2">b</l></div></div>` +
      `<div type="section" n="2"><div type="page" n="p2"><l n="3">c</l></div></div></div>` +
      `<div type="book" n="2"><div type="section" n="1"><div type="page" n="p3"><l n="4">d</l></div></div></div>` +
      `</body></text></TEI>\n`,
  );
  return dir;
}

describe("DTS 1.0 citation trees (refsDecl[@n]) chosen by tree", () => {
  it("are listed in citationTrees, navigated and read with tree=, on dts serve and as static files", async () => {
    const corpus = twoTreeCorpus();
    const port = await freePort();
    const site = makeSite({ apis: ["1.0"], siteUrl: `http://127.0.0.1:${port}`, staticPaths: true });
    const dist = await buildSite(corpus, site);
    try {
      const resource = JSON.parse(readFileSync(join(dist, "api/dts/v1/collection/urn:dts:test:two.jsonld"), "utf8"));
      expect(resource.citationTrees.map((t: { identifier?: string }) => t.identifier ?? "default")).toEqual(["default", "page"]);
      const server = await startServer({ dist, site, port, host: "127.0.0.1" });
      try {
        const walk = await walkV1(`${site.siteUrl}/api/dts/v1/index.jsonld`, { ranges: true, get: fetchAnswer });
        expect([walk.units, walk.treeUnits]).toEqual([5, 7]);
        const line = await fetchAnswer(`${site.siteUrl}/api/dts/v1/document?resource=urn:dts:test:two&tree=page&ref=p1:2`);
        expect(line.body).toContain('<dts:wrapper xmlns:dts="https://w3id.org/api/dts#"><l n="2">b</l></dts:wrapper>');
      } finally {
        await server.close();
      }
      if (PYTHON) {
        const python = await startPython(dist, port);
        try {
          const walk = await walkV1(`${site.siteUrl}/api/dts/v1/index.jsonld`, { ranges: false, get: fetchAnswer });
          expect([walk.units, walk.treeUnits]).toEqual([5, 7]);
        } finally {
          await python.stop();
        }
      }
    } finally {
      rmSync(dist, { recursive: true, force: true });
      rmSync(corpus, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAS_SHARED)("DTS 1.0 on real corpora", () => {
  for (const name of ["citeStructure", "formulae-open", "priapeia"]) {
    it(`${name}: every collection, and every 4th unit with its passage, through the templates, on dts serve and as static files`, async () => {
      const port = await freePort();
      const site = makeSite({ apis: ["1-draft2", "1.0"], siteUrl: `http://127.0.0.1:${port}`, staticPaths: true });
      const dist = await buildSite(join(SHARED, name), site);
      try {
        const server = await startServer({ dist, site, port, host: "127.0.0.1" });
        let served: number;
        try {
          const walk = await walkV1(`${site.siteUrl}/api/dts/v1/index.jsonld`, { ranges: true, get: fetchAnswer, every: 4 });
          served = walk.units;
          expect(walk.units).toBeGreaterThan(0);
          // Every passage, in both wrappers, is the same bytes.
          let compared = 0;
          for (const a of walk.answers.filter(
            (x) => x.url.includes("/document/") && /\/[^/;]+\/[^/]+\.tei$/.test(new URL(x.url).pathname),
          )) {
            const path = decodeURIComponent(new URL(a.url).pathname).slice("/api/dts/v1/document/".length, -".tei".length);
            const resource = walk.resources.find((r) => path.startsWith(`${r}/`));
            if (!resource || walk.ranges.includes(a)) continue;
            const ref = path.slice(resource.length + 1);
            const draft = await fetchAnswer(
              `${site.siteUrl}/api/dts/document?id=${encodeURIComponent(resource)}&ref=${encodeURIComponent(ref)}`,
            );
            expect(sameInside(a.body, draft.body), a.url).toBe(true);
            compared++;
          }
          expect(compared).toBeGreaterThan(walk.units / 10);
        } finally {
          await server.close();
        }
        if (PYTHON) {
          const python = await startPython(dist, port);
          try {
            const walk = await walkV1(`${site.siteUrl}/api/dts/v1/index.jsonld`, { ranges: false, get: fetchAnswer, every: 4 });
            expect(walk.units).toBe(served);
            for (const a of walk.ranges) expect([a.url, a.status]).toEqual([a.url, 404]);
          } finally {
            await python.stop();
          }
        }
      } finally {
        rmSync(dist, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
if (!HAS_SHARED) console.warn(SHARED_SKIP);

describe.skipIf(!NGINX)("DTS 1.0 behind nginx with the generated rules", () => {
  it("answers every 1.0 request as dts serve does, the stored ones from the tree with dts serve stopped", async () => {
    const work = mkdtempSync(join(tmpdir(), "dts-v1-rules-"));
    chmodSync(work, 0o755);
    const dist = join(work, "dist");
    const port = await freePort();
    const site = makeSite({ apis: ["1-draft2", "1.0"], siteUrl: `http://127.0.0.1:${port}` });
    await build({ corpus: EMBEDDED, out: dist, site, workers: 0, hosts: { hosts: ["nginx"] } });
    const upstream = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
    const nginx = await startNginx(work, dist, upstream.url, { port });
    try {
      const walk = await walkV1(`${site.siteUrl}/api/dts/v1/`, { ranges: true, get: fetchAnswer });
      expect(walk.units).toBe(75);
      await upstream.close();
      let stored = 0;
      for (const a of walk.answers) {
        const again = await fetchAnswer(a.url);
        // What the tree holds still comes; what only dts serve computes (ranges, down=0) does not.
        if (again.status === 200) {
          expect([a.url, again.type, again.body]).toEqual([a.url, a.type, a.body]);
          stored++;
        } else expect(walk.ranges.includes(a) || a.url.includes("down=0"), a.url).toBe(true);
      }
      expect(stored).toBeGreaterThan(walk.answers.length / 2);
    } finally {
      await nginx.stop();
      await upstream.close().catch(() => undefined);
      rmSync(work, { recursive: true, force: true });
    }
  });
});
