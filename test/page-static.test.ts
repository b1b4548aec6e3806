// The same reader page on the DTS 1.0 static profile served by plain file servers (python's
// http.server, a plain nginx): every URL it asks for is a file the templates name, so a host
// with no rules serves the whole reader. And on a real corpus served by `dts serve`.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPassageText, CHROMIUM, clickAndWait, launchBrowser, openPage, pageQuery, shownText } from "./helpers/browser.js";
import { EDGE, ODYSSEY } from "./helpers/embedded.js";
import { PYTHON, startPython } from "./helpers/file-server.js";
import { freePort } from "./helpers/hosts-conformance.js";
import { PLAIN_NGINX, startPlainNginx } from "./helpers/nginx.js";
import { buildTree, EMBEDDED, HAS_SHARED, type ServedTree, SHARED, SHARED_SKIP, serveCorpus } from "./helpers/tree.js";

/** The static profile's Document file of a passage, as its template names it. */
const staticDocument = (origin: string, id: string, ref: string): string =>
  `${origin}/api/dts/v1/document/${encodeURIComponent(id)}/${encodeURIComponent(ref)}.tei`;

describe.skipIf(!CHROMIUM)("the reader on the DTS 1.0 static profile, on plain file servers", () => {
  let dist: string;
  let browser: Browser;
  beforeAll(async () => {
    ({ dist } = await buildTree(EMBEDDED, { apis: ["1.0"], staticPaths: true }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("names the static profile's entry file", () => {
    const html = readFileSync(join(dist, "index.html"), "utf8");
    expect(html).toContain('<meta name="dts-entry" content="api/dts/v1/index.jsonld">');
    expect(readdirSync(dist)).toEqual(expect.arrayContaining(["index.html", "dts-reader.js", "dts-reader.css"]));
  });

  /** A walk to a passage and along it, and a passage's own address, on the server at `origin`. */
  async function readOn(origin: string): Promise<void> {
    const { page, requests, errors } = await openPage(browser, `${origin}/`);
    expect(await page.$eval("body", (e) => e.dataset.api)).toBe("1.0");
    await clickAndWait(page, 'a[href="?collection=urn:dts:sample:greek"]');
    await clickAndWait(page, `a[href="?id=${ODYSSEY}"]`);
    await page.waitForSelector('li[data-ref="1"] > button.toggle');
    await page.click('li[data-ref="1"] > button.toggle');
    await clickAndWait(page, 'li[data-ref="1.10"] > a');
    expect(await shownText(page)).toBe(await apiPassageText(page, staticDocument(origin, ODYSSEY, "1.10")));
    await clickAndWait(page, 'a[rel="next"]');
    expect(pageQuery(page).get("ref")).toBe("2.1");
    expect(await shownText(page)).toBe(await apiPassageText(page, staticDocument(origin, ODYSSEY, "2.1")));
    await clickAndWait(page, 'a[rel="prev"]');
    expect(pageQuery(page).get("ref")).toBe("1.10");
    // A shared link, opened cold.
    const direct = await openPage(browser, `${origin}/?id=${ODYSSEY}&ref=2.3`);
    expect(await shownText(direct.page)).toBe(await apiPassageText(direct.page, staticDocument(origin, ODYSSEY, "2.3")));
    expect(await direct.page.$eval("#passage-text", (e) => e.getAttribute("lang"))).toBe("grc");
    // References that need escaping (a space, `;`, `/`, non-ASCII) and an id with a space.
    for (const ref of ["1.a b", "2.x;y", "2.1/2", "2.α"]) {
      const edge = await openPage(browser, `${origin}/?id=${encodeURIComponent(EDGE)}&ref=${encodeURIComponent(ref)}`);
      expect(await shownText(edge.page), ref).toBe(await apiPassageText(edge.page, staticDocument(origin, EDGE, ref)));
      expect(edge.errors, ref).toEqual([]);
    }
    expect([...requests, ...direct.requests].every((r) => r.startsWith(`${origin}/`) || r.startsWith("data:"))).toBe(true);
    expect([...errors, ...direct.errors]).toEqual([]);
  }

  it.skipIf(!PYTHON)("reads on python's http.server", async () => {
    const port = await freePort();
    const python = await startPython(dist, port);
    try {
      await readOn(`http://127.0.0.1:${port}`);
    } finally {
      await python.stop();
    }
  });

  it.skipIf(!PLAIN_NGINX)("reads on a plain nginx", async () => {
    const work = mkdtempSync(join(tmpdir(), "dts-page-nginx-"));
    const nginx = await startPlainNginx(work, dist);
    try {
      await readOn(nginx.url);
    } finally {
      await nginx.stop();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!CHROMIUM || !HAS_SHARED)("the reader on a real corpus (priapeia) on dts serve", () => {
  let served: ServedTree;
  let browser: Browser;
  beforeAll(async () => {
    served = await serveCorpus(join(SHARED, "priapeia"));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it("walks to the first passage of the first text and on to the next", async () => {
    const origin = served.server.url;
    const { page, errors } = await openPage(browser, `${origin}/`);
    // Down the collections to the first Resource.
    for (let depth = 0; depth < 6 && !(await page.$("ul.tree")); depth++) await clickAndWait(page, "ul.members a");
    const first = await page.waitForSelector("ul.tree > li > a");
    await first!.click();
    await page.waitForFunction(() => document.body.dataset.ready === "true" && new URLSearchParams(location.search).has("ref"));
    const passage = await page.$eval("#copy-url", (e) => (e as HTMLInputElement).value);
    expect(await shownText(page)).toBe(await apiPassageText(page, passage));
    expect((await shownText(page)).length).toBeGreaterThan(0);
    const ref = pageQuery(page).get("ref");
    await clickAndWait(page, 'a[rel="next"]');
    expect(pageQuery(page).get("ref")).not.toBe(ref);
    expect(await shownText(page)).toBe(await apiPassageText(page, await page.$eval("#copy-url", (e) => (e as HTMLInputElement).value)));
    expect(errors).toEqual([]);
  });
});

if (!HAS_SHARED) console.warn(SHARED_SKIP);
