// A real browser for the reader page's tests: Debian's chromium driven by puppeteer-core.
// Suites skip, saying so, when no chromium is installed (set CHROMIUM to use another).

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { PROJECT } from "./tree.js";

function findChromium(): string | null {
  if (process.env.CHROMIUM) return existsSync(process.env.CHROMIUM) ? process.env.CHROMIUM : null;
  for (const candidate of ["/usr/bin/chromium", "/usr/bin/chromium-browser"]) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

export const CHROMIUM = findChromium();
export const CHROMIUM_SKIP =
  "chromium is not installed (apt-get install chromium, or set CHROMIUM): skipping the reader page's browser tests";
if (!CHROMIUM) console.warn(CHROMIUM_SKIP);

export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM!,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

export interface WatchedPage {
  page: Page;
  /** Every URL the page requested. */
  requests: string[];
  /** Uncaught exceptions and console errors. */
  errors: string[];
}

export async function openPage(browser: Browser, url: string): Promise<WatchedPage> {
  const page = await browser.newPage();
  await page.setViewport({ width: 900, height: 700 });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => void requests.push(r.url()));
  page.on("pageerror", (e) => void errors.push(String(e)));
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  await page.goto(url);
  await ready(page);
  return { page, requests, errors };
}

/** Waits until the page has shown what its address names. */
export async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.ready === "true", { timeout: 15_000 });
}

/** Clicks and waits for the view it leads to. */
export async function clickAndWait(page: Page, selector: string): Promise<void> {
  await page.waitForSelector(selector, { timeout: 10_000 });
  await page.click(selector);
  await ready(page);
}

/** Text as a reader compares it: whitespace runs as one space, trimmed. */
export const normalise = (text: string): string => text.replace(/\s+/g, " ").trim();

/** The passage text the page shows. */
export const shownText = (page: Page): Promise<string> => page.$eval("#passage-text", (el) => el.textContent ?? "").then(normalise);

/**
 * The text of a Document answer's passage, read by the browser's own XML parser from the API
 * (not by the page): the content of `dts:fragment` (1-draft2) or `dts:wrapper` (1.0).
 */
export async function apiPassageText(page: Page, url: string): Promise<string> {
  const text = await page.evaluate(async (u) => {
    const xml = await (await fetch(u)).text();
    const doc = new DOMParser().parseFromString(xml, "application/xml");
    const holder = [...doc.documentElement.children].find((e) => e.localName === "fragment" || e.localName === "wrapper");
    return holder?.textContent ?? null;
  }, url);
  if (text === null) throw new Error(`no dts:fragment or dts:wrapper in ${url}`);
  return normalise(text);
}

/** The page's address's query, decoded. */
export const pageQuery = (page: Page): URLSearchParams => new URL(page.url()).searchParams;

/**
 * A screenshot of the page for docs/: written there when it is missing or DTS_SCREENSHOTS=1 asks
 * (`DTS_SCREENSHOTS=1 npm test` refreshes them), else beside the test run's files, so that a run
 * does not leave docs/ changed (the server's port shows in the page). Returns its path.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  const docs = join(PROJECT, "docs", name);
  const path = process.env.DTS_SCREENSHOTS === "1" || !existsSync(docs) ? docs : join(mkdtempSync(join(tmpdir(), "dts-shot-")), name);
  await page.screenshot({ path, fullPage: true });
  return path;
}
