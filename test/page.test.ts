// The reader page on `dts serve`, in a real browser: served at / with its policy and nothing
// else of the tree's root; a reader walks from the collections to a passage and on to its
// neighbours, and the text shown is the passage's text as the API gives it; a passage's own
// address opens it directly; the same page reads DTS 1.0 when the tree serves only 1.0.

import { readFileSync, rmSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE_FOLDER } from "../builder/page/files.js";
import { PAGE_CSP } from "../builder/page/html.js";
import { textLanguage } from "../page/language.js";
import { type RunningServer, startServer } from "../server/serve.js";
import {
  apiPassageText,
  CHROMIUM,
  clickAndWait,
  launchBrowser,
  normalise,
  openPage,
  pageQuery,
  screenshot,
  shownText,
} from "./helpers/browser.js";
import { CAESAR, CATULLUS, doc, EDGE, GEORGICS, ODYSSEY } from "./helpers/embedded.js";
import { buildTree, EMBEDDED, type ServedTree, serveCorpus } from "./helpers/tree.js";

const MAX_SCRIPT = 100 * 1024;
const q = (id: string): string => id;

describe("the reader page's files", () => {
  let served: ServedTree;
  beforeAll(async () => {
    served = await serveCorpus(EMBEDDED);
  });
  afterAll(() => served.close());

  it("is one ES module under 100 KB and one style sheet", () => {
    const script = readFileSync(`${BUNDLE_FOLDER}/dts-reader.js`);
    expect(script.length).toBeLessThan(MAX_SCRIPT);
    expect(gzipSync(script).length).toBeLessThan(MAX_SCRIPT / 3);
    expect(statSync(`${BUNDLE_FOLDER}/dts-reader.css`).size).toBeGreaterThan(0);
    // No CDN, no other origin named anywhere in the page's files.
    for (const file of ["index.html", "dts-reader.js", "dts-reader.css"]) {
      expect(readFileSync(`${served.dist}/${file}`, "utf8")).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    }
  });

  it("answers / and its two assets with their types, an ETag and the policy; 304 when unchanged", async () => {
    for (const [path, type] of [
      ["/", "text/html; charset=utf-8"],
      ["/dts-reader.js", "text/javascript; charset=utf-8"],
      ["/dts-reader.css", "text/css; charset=utf-8"],
    ]) {
      const r = await served.fetch(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get("content-type")).toBe(type);
      expect(r.headers.get("content-security-policy")).toBe(`${PAGE_CSP}; frame-ancestors 'none'`);
      const etag = r.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]+"$/);
      expect((await served.fetch(path, { headers: { "If-None-Match": etag } })).status).toBe(304);
      expect(Buffer.from(await r.arrayBuffer()).equals(readFileSync(`${served.dist}/${path === "/" ? "index.html" : path.slice(1)}`))).toBe(
        true,
      );
    }
    const html = await (await served.fetch("/")).text();
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`);
    expect(html).toContain('<meta name="dts-entry" content="api/dts">');
  });

  it("serves no other file of the tree's root", async () => {
    for (const path of ["/_catalog.json", "/_site.json", "/_tree.json", "/_manifest.json", "/index.html"]) {
      expect((await served.fetch(path)).status, path).toBe(404);
    }
  });

  it("reads right-to-left languages as such", () => {
    expect(textLanguage({ language: [{ value: "ar" }] })).toEqual({ lang: "ar", dir: "rtl" });
    expect(textLanguage({ language: [{ value: "he-IL" }] })?.dir).toBe("rtl");
    expect(textLanguage({ language: [{ value: "grc" }] })).toEqual({ lang: "grc", dir: "ltr" });
    expect(textLanguage({})).toBeNull();
  });
});

describe.skipIf(!CHROMIUM)("the reader on dts serve (1-draft2)", () => {
  let served: ServedTree;
  let browser: Browser;
  beforeAll(async () => {
    // Two members a page: the root collection (three) is paged.
    served = await serveCorpus(EMBEDDED, { pageSize: 2 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it("walks from the collections to a passage, shows its text, and moves to its neighbours", async () => {
    const { page, requests, errors } = await openPage(browser, `${served.server.url}/`);
    const origin = served.server.url;
    expect(await page.$eval("#view-title", (e) => e.textContent)).toBe("DTS sample library");
    expect(normalise(await page.$eval(".pages", (e) => e.textContent ?? ""))).toContain("Page 1 of 2");
    // The collections, paged: Latin texts is on the second page.
    await clickAndWait(page, 'a[rel="next"]');
    expect(pageQuery(page).get("page")).toBe("2");
    expect(await page.$eval("ul.members", (e) => e.textContent)).toContain("Latin");
    await clickAndWait(page, 'a[rel="prev"]');
    await clickAndWait(page, 'a[href="?collection=urn:dts:sample:greek"]');
    expect(await page.$eval("dd[data-term=language]", (e) => e.textContent)).toBe("grc");
    await clickAndWait(page, `a[href="?id=${q(ODYSSEY)}"]`);
    expect(await page.$eval("dd[data-term=creator]", (e) => e.textContent)).toContain("Homer");
    // The tree, one level at a time.
    await page.waitForSelector('li[data-ref="1"] > button.toggle');
    expect(await page.$('li[data-ref="1.2"]')).toBeNull();
    await page.click('li[data-ref="1"] > button.toggle');
    await clickAndWait(page, 'li[data-ref="1.2"] > a');
    expect(pageQuery(page).get("id")).toBe(ODYSSEY);
    expect(pageQuery(page).get("ref")).toBe("1.2");
    const url = (ref: string): string => `${origin}${doc(ODYSSEY, `&ref=${ref}`)}`;
    expect(await shownText(page)).toBe(await apiPassageText(page, url("1.2")));
    expect(await page.$eval("#passage-text", (e) => e.getAttribute("lang"))).toBe("grc");
    expect(await page.$eval("#passage-text .l", (e) => e.getAttribute("data-n"))).toBe("2");
    // Next, previous, across books, up.
    await clickAndWait(page, 'a[rel="next"]');
    expect(pageQuery(page).get("ref")).toBe("1.3");
    expect(await shownText(page)).toBe(await apiPassageText(page, url("1.3")));
    await clickAndWait(page, 'a[rel="prev"]');
    await clickAndWait(page, 'a[rel="prev"]');
    expect(pageQuery(page).get("ref")).toBe("1.1");
    await page.goto(`${origin}/?id=${ODYSSEY}&ref=1.10`);
    await page.waitForFunction(() => document.body.dataset.ready === "true");
    await clickAndWait(page, 'a[rel="next"]');
    expect(pageQuery(page).get("ref")).toBe("2.1");
    expect(await shownText(page)).toBe(await apiPassageText(page, url("2.1")));
    await clickAndWait(page, 'a[rel="up"]');
    expect(pageQuery(page).get("ref")).toBe("2");
    expect(await shownText(page)).toBe(await apiPassageText(page, url("2")));
    // The browser's back button: the address names the view.
    await page.goBack();
    await page.waitForFunction(() => new URLSearchParams(location.search).get("ref") === "2.1" && document.body.dataset.ready === "true");
    expect(await shownText(page)).toBe(await apiPassageText(page, url("2.1")));
    expect(
      requests.every((r) => r.startsWith(`${origin}/`) || r.startsWith("data:")),
      requests.join("\n"),
    ).toBe(true);
    expect(errors).toEqual([]);
  });

  it("opens a passage's address directly, shows its XML on demand, and gives its DTS URL and a citation", async () => {
    const origin = served.server.url;
    const { page, errors } = await openPage(browser, `${origin}/?id=${CATULLUS}&ref=5`);
    const url = `${origin}${doc(CATULLUS, "&ref=5")}`;
    expect(await shownText(page)).toBe(await apiPassageText(page, url));
    // A read-only server's documentation lists no write: no editor, no token field.
    expect(await page.$("#edit")).toBeNull();
    expect(await page.$("#token")).toBeNull();
    expect(await page.$eval("#passage-xml", (e) => (e as HTMLElement).hidden)).toBe(true);
    await page.click("#toggle-xml");
    expect(await page.$eval("#passage-xml", (e) => (e as HTMLElement).hidden)).toBe(false);
    expect(await page.$eval("#passage-xml", (e) => e.textContent)).toContain('<l n="5">');
    const dtsUrl = await page.$eval("#copy-url", (e) => (e as HTMLInputElement).value);
    expect((await fetch(dtsUrl)).status).toBe(200);
    expect(new URL(dtsUrl).searchParams.get("ref")).toBe("5");
    const citation = await page.$eval("#copy-citation", (e) => (e as HTMLInputElement).value);
    expect(citation).toContain("Catullus");
    expect(citation).toContain(`${origin}/?id=${CATULLUS}&ref=5`);
    // A range, and the window after it.
    await page.goto(`${origin}/?id=${ODYSSEY}&start=1.2&end=1.4`);
    await page.waitForFunction(() => document.body.dataset.ready === "true");
    expect(await shownText(page)).toBe(await apiPassageText(page, `${origin}${doc(ODYSSEY, "&start=1.2&end=1.4")}`));
    await clickAndWait(page, 'a[rel="next"]');
    expect([pageQuery(page).get("start"), pageQuery(page).get("end")]).toEqual(["1.5", "1.7"]);
    expect(await shownText(page)).toBe(await apiPassageText(page, `${origin}${doc(ODYSSEY, "&start=1.5&end=1.7")}`));
    // References that need escaping (a space, `;`, `/`, non-ASCII) and an id with a space, with their neighbours.
    for (const ref of ["1.a b", "2.x;y", "2.1/2", "2.α"]) {
      await page.goto(`${origin}/?id=${encodeURIComponent(EDGE)}&ref=${encodeURIComponent(ref)}`);
      await page.waitForFunction(() => document.body.dataset.ready === "true");
      expect(await shownText(page), ref).toBe(await apiPassageText(page, `${origin}${doc(EDGE, `&ref=${encodeURIComponent(ref)}`)}`));
    }
    await clickAndWait(page, 'a[rel="prev"]');
    expect(pageQuery(page).get("ref")).toBe("1.a b");
    // Unknown references say so, from the API's own description.
    await page.goto(`${origin}/?id=${CATULLUS}&ref=999`);
    await page.waitForFunction(() => document.body.dataset.ready === "true");
    expect(await page.$eval("#status", (e) => e.textContent)).toMatch(/^404: .*999/);
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
  });

  it("renders TEI readably: headings, numbered lines, notes set apart in their language, paragraphs", async () => {
    const origin = served.server.url;
    const georgics = await openPage(browser, `${origin}/?id=${GEORGICS}&ref=1`);
    const g = georgics.page;
    expect(await g.$eval("#passage-text h3.head", (e) => e.textContent)).toBe("Liber I");
    expect(await g.$eval('#passage-text .l[data-n="2"] .note', (e) => [e.getAttribute("role"), e.getAttribute("lang")])).toEqual([
      "note",
      "eng",
    ]);
    expect(await g.$eval('#passage-text .l[data-n="2"]', (e) => getComputedStyle(e, "::before").content)).toBe('"2"');
    expect(await g.$eval('#passage-text .l[data-n="2"] .note', (e) => getComputedStyle(e).display)).toBe("block");
    expect(await shownText(g)).toBe(await apiPassageText(g, `${origin}${doc(GEORGICS, "&ref=1")}`));
    const caesar = await openPage(browser, `${origin}/?id=${CAESAR}&ref=1.1`);
    expect(await caesar.page.$$eval("#passage-text section.div p.p", (ps) => ps.length)).toBeGreaterThan(1);
    expect(await shownText(caesar.page)).toBe(await apiPassageText(caesar.page, `${origin}${doc(CAESAR, "&ref=1.1")}`));
    expect(await caesar.page.$eval("#passage-text", (e) => e.getAttribute("lang"))).toMatch(/^la/);
  });

  it("is usable from the keyboard: links and buttons take the focus in order", async () => {
    const { page } = await openPage(browser, `${served.server.url}/?id=${ODYSSEY}`);
    await page.waitForSelector('li[data-ref="1"] > button.toggle');
    // Tab from the top of the page to the first unit's button, and open it with Enter.
    let steps = 0;
    while (!(await page.evaluate(() => document.activeElement?.matches('li[data-ref="1"] > button.toggle')))) {
      await page.keyboard.press("Tab");
      expect(++steps, "the tree's first button is reached by Tab").toBeLessThan(20);
    }
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe("none");
    await page.keyboard.press("Enter");
    await page.waitForSelector('li[data-ref="1.1"] > a');
    expect(await page.$eval('li[data-ref="1"] > button.toggle', (e) => e.getAttribute("aria-expanded"))).toBe("true");
  });

  it("writes docs/reader.png", async () => {
    const { page } = await openPage(browser, `${served.server.url}/?id=${ODYSSEY}&ref=1`);
    const png = readFileSync(await screenshot(page, "reader.png"));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  });
});

describe.skipIf(!CHROMIUM)("the reader on dts serve, a tree of DTS 1.0 only", () => {
  let server: RunningServer;
  let dist: string;
  let browser: Browser;
  beforeAll(async () => {
    const tree = await buildTree(EMBEDDED, { apis: ["1.0"] });
    dist = tree.dist;
    server = await startServer({ dist, site: tree.site, port: 0, host: "127.0.0.1" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("follows the 1.0 templates to a passage and its neighbours from the Navigation answers", async () => {
    const origin = server.url;
    expect(readFileSync(`${dist}/index.html`, "utf8")).toContain('<meta name="dts-entry" content="api/dts/v1/">');
    const { page, errors } = await openPage(browser, `${origin}/`);
    expect(await page.$eval("body", (e) => e.dataset.api)).toBe("1.0");
    await clickAndWait(page, 'a[href="?collection=urn:dts:sample:greek"]');
    await clickAndWait(page, `a[href="?id=${q(ODYSSEY)}"]`);
    await page.waitForSelector('li[data-ref="2"] > button.toggle');
    await page.click('li[data-ref="2"] > button.toggle');
    await clickAndWait(page, 'li[data-ref="2.1"] > a');
    const url = (ref: string): string => `${origin}/api/dts/v1/document?resource=${encodeURIComponent(ODYSSEY)}&ref=${ref}`;
    expect(await shownText(page)).toBe(await apiPassageText(page, url("2.1")));
    await clickAndWait(page, 'a[rel="prev"]');
    expect(pageQuery(page).get("ref")).toBe("1.10");
    expect(await shownText(page)).toBe(await apiPassageText(page, url("1.10")));
    await clickAndWait(page, 'a[rel="up"]');
    expect(pageQuery(page).get("ref")).toBe("1");
    await clickAndWait(page, 'a[rel="next"]');
    expect(pageQuery(page).get("ref")).toBe("2");
    expect(await page.$('a[rel="next"]')).toBeNull();
    expect(errors).toEqual([]);
  });
});
