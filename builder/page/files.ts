// The reader page's three files at the tree's root: index.html rendered for the tree's
// settings, and the script and style sheet tools/bundle-page.mjs bundled into out/page/.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Warning } from "../catalog.js";
import { packageRoot } from "../hosts/common.js";
import type { Site } from "../site.js";
import { PAGE_HTML, PAGE_SCRIPT, PAGE_STYLE, renderPageHtml } from "./html.js";

/** Where tools/bundle-page.mjs writes the bundle, whether this runs compiled (out/) or not. */
export const BUNDLE_FOLDER = join(packageRoot(), "out/page");

export interface PageFiles {
  /** Files written (an incremental build leaves equal ones alone), and their bytes. */
  files: number;
  bytes: number;
  /** A warning when the bundle is missing (a checkout not compiled). */
  warnings: Warning[];
}

/** Writes the page into `root`. */
export function writePageFiles(root: string, site: Site): PageFiles {
  const assets = [PAGE_SCRIPT, PAGE_STYLE].map((name) => join(BUNDLE_FOLDER, name));
  if (!assets.every((file) => existsSync(file))) {
    const message = "the reader page is not bundled (run `npm run compile`): the tree has no page at its root";
    return { files: 0, bytes: 0, warnings: [{ file: BUNDLE_FOLDER, message }] };
  }
  const out: PageFiles = { files: 0, bytes: 0, warnings: [] };
  const files: [string, Buffer][] = [
    ...assets.map((file): [string, Buffer] => [basename(file), readFileSync(file)]),
    [PAGE_HTML, Buffer.from(renderPageHtml(site))],
  ];
  for (const [name, bytes] of files) {
    const path = join(root, name);
    if (existsSync(path) && readFileSync(path).equals(bytes)) continue;
    writeFileSync(path, bytes);
    out.files++;
    out.bytes += bytes.length;
  }
  return out;
}
