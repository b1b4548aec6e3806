// The reader's editor in a real browser, on a server that accepts writes (a copy of the
// embedded corpus): it appears only there, edits a line and saves it with If-Match, pins the
// server's validation error to its line, shows both versions on a 412 and loses nothing,
// inserts a passage and deletes one after a confirmation.

import { readFileSync } from "node:fs";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPassageText, CHROMIUM, launchBrowser, openPage, ready, screenshot, shownText } from "./helpers/browser.js";
import { CATULLUS, CATULLUS_FILE, doc } from "./helpers/embedded.js";
import { fragment, TOKEN, type WriteTree, writeTree } from "./helpers/write-server.js";

/** Replaces the editor's text as a user typing would (an input event follows). */
async function setEditorText(page: Page, text: string): Promise<void> {
  await page.$eval(
    "#editor-text",
    (el, value) => {
      (el as HTMLTextAreaElement).value = value;
      el.dispatchEvent(new Event("input"));
    },
    text,
  );
}

describe.skipIf(!CHROMIUM)("the reader's editor on a server that accepts writes", () => {
  let tree: WriteTree;
  let browser: Browser;
  beforeAll(async () => {
    tree = await writeTree();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await tree?.close();
  });

  /** Every URL the pages asked for: the token is never in one. */
  const requested: string[][] = [];
  afterAll(() => {
    expect(requested.flat().length).toBeGreaterThan(0);
    expect(requested.flat().filter((u) => u.includes(TOKEN))).toEqual([]);
  });

  /** The page on a passage, with the token entered. */
  async function editorOn(ref: string): Promise<Page> {
    const { page, requests } = await openPage(browser, `${tree.server.url}/?id=${CATULLUS}&ref=${ref}`);
    requested.push(requests);
    await page.type("#token", TOKEN);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => sessionStorage.getItem("dts-token"))).toBe(TOKEN);
    expect(page.url()).not.toContain(TOKEN);
    return page;
  }

  it("edits a line and saves it: the page and the API show the new text, the file has it", async () => {
    const page = await editorOn("5");
    await page.click("#edit");
    expect(await page.$eval("#editor-text", (e) => (e as HTMLTextAreaElement).value)).toBe(
      '<l n="5">nobis cum semel occidit brevis lux,</l>',
    );
    await setEditorText(page, '<l n="5">nobis cum semel occidit brevis lux, (emended)</l>');
    await page.click("#editor-save");
    await page.waitForFunction(() => document.querySelector("#passage-text")?.textContent?.includes("(emended)"));
    await ready(page);
    const url = `${tree.server.url}${doc(CATULLUS, "&ref=5")}`;
    expect(await shownText(page)).toBe(await apiPassageText(page, url));
    expect(await shownText(page)).toBe("nobis cum semel occidit brevis lux, (emended)");
    expect(tree.file(CATULLUS_FILE)).toContain('<l n="5">nobis cum semel occidit brevis lux, (emended)</l>');
  });

  it("pins a validation error to its line and column, and writes nothing", async () => {
    const before = tree.file(CATULLUS_FILE);
    const page = await editorOn("6");
    await page.click("#edit");
    await setEditorText(page, '<l n="6">nox est perpetua\n  una <hi>dormienda.</l>');
    await page.click("#editor-save");
    await page.waitForSelector("#editor-problems li[data-line]");
    expect(await page.$eval("#editor-problems li", (e) => e.getAttribute("data-line"))).toBe("2");
    expect(await page.$eval("#editor-problems li", (e) => e.textContent)).toMatch(/^Line 2, column \d+: The body is not well-formed XML/);
    expect(await page.$eval(".gutter .error-line", (e) => e.getAttribute("data-line"))).toBe("2");
    // The error's button puts the caret on that line.
    await page.click("#editor-problems button.goto");
    const caretLine = await page.$eval("#editor-text", (e) => {
      const t = e as HTMLTextAreaElement;
      return t.value.slice(0, t.selectionStart).split("\n").length;
    });
    expect(caretLine).toBe(2);
    expect(tree.file(CATULLUS_FILE)).toBe(before);
    const png = readFileSync(await screenshot(page, "editor.png"));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  });

  it("on a 412 shows their version beside this one, keeps what was typed, and saves it when asked", async () => {
    const page = await editorOn("7");
    await page.click("#edit");
    // Someone saves the line behind the page's back.
    expect((await tree.write("PUT", doc(CATULLUS, "&ref=7"), fragment('<l n="7">da mi basia mille (theirs)</l>'))).status).toBe(200);
    await setEditorText(page, '<l n="7">da mi basia mille (mine)</l>');
    await page.click("#editor-save");
    await page.waitForSelector("#editor-conflict:not([hidden])");
    expect(await page.$eval("#conflict-theirs", (e) => e.textContent)).toBe('<l n="7">da mi basia mille (theirs)</l>');
    expect(await page.$eval("#conflict-yours", (e) => e.textContent)).toBe('<l n="7">da mi basia mille (mine)</l>');
    expect(await page.$eval("#editor-text", (e) => (e as HTMLTextAreaElement).value)).toBe('<l n="7">da mi basia mille (mine)</l>');
    expect(tree.file(CATULLUS_FILE)).toContain("(theirs)");
    await page.click("#keep-mine");
    await page.waitForFunction(() => document.querySelector("#passage-text")?.textContent?.includes("(mine)"));
    expect(tree.file(CATULLUS_FILE)).toContain('<l n="7">da mi basia mille (mine)</l>');
  });

  it("inserts a passage after another and one before it, then deletes them after a confirmation", async () => {
    const page = await editorOn("10");
    await page.click("#insert-after");
    expect(await page.$eval("#editor-text", (e) => (e as HTMLTextAreaElement).value)).toBe('<l n=""></l>');
    await setEditorText(page, '<l n="10a">versus novus</l>');
    await page.click("#editor-save");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("ref") === "10a" && document.body.dataset.ready === "true");
    expect(await shownText(page)).toBe("versus novus");
    expect(tree.file(CATULLUS_FILE)).toMatch(/<l n="10">[^\n]*<\/l>\n\s*<l n="10a">versus novus<\/l>/);
    // Before it, another; then both go.
    await page.click("#insert-before");
    await setEditorText(page, '<l n="10b">versus alter</l>');
    await page.click("#editor-save");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("ref") === "10b" && document.body.dataset.ready === "true");
    expect(tree.file(CATULLUS_FILE)).toMatch(/<l n="10b">versus alter<\/l>\n\s*<l n="10a">versus novus<\/l>/);
    await page.click('a[rel="next"]');
    await page.waitForFunction(() => new URLSearchParams(location.search).get("ref") === "10a" && document.body.dataset.ready === "true");
    await page.click("#delete");
    expect(await page.$eval("#delete-confirm", (e) => (e as HTMLElement).hidden)).toBe(false);
    await page.click("#delete-no");
    expect(tree.file(CATULLUS_FILE)).toContain("10a");
    await page.click("#delete");
    await page.click("#delete-yes");
    // The page goes to the passage before the one deleted.
    await page.waitForFunction(() => new URLSearchParams(location.search).get("ref") === "10b" && document.body.dataset.ready === "true");
    expect(tree.file(CATULLUS_FILE)).not.toContain("10a");
    await page.click("#delete");
    await page.click("#delete-yes");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("ref") === "10" && document.body.dataset.ready === "true");
    expect(await shownText(page)).toBe("dein, cum milia multa fecerimus,");
    expect(tree.file(CATULLUS_FILE)).not.toContain("10b");
    expect((await tree.fetch(doc(CATULLUS, "&ref=10a"))).status).toBe(404);
  });
});
