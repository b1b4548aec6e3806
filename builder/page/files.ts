// The reader page's three files at the tree's root: index.html rendered for the tree's
// settings, and the script and style sheet tools/bundle-page.mjs bundled into out/page/.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Warning } from "../catalog.js";
import type { Site } from "../site.js";
import { PAGE_HTML, PAGE_SCRIPT, PAGE_STYLE, renderPageHtml } from "./html.js";

/** The project's root: where package.json is, above this file whether it runs compiled (out/) or not. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export const BUNDLE_FOLDER = join(projectRoot(), "out/page");

/** Writes the page into `root`; a warning when the bundle is missing (a checkout not compiled). */
export function writePageFiles(root: string, site: Site): Warning[] {
  const assets = [PAGE_SCRIPT, PAGE_STYLE].map((name) => join(BUNDLE_FOLDER, name));
  if (!assets.every((file) => existsSync(file))) {
    return [{ file: BUNDLE_FOLDER, message: "the reader page is not bundled (run `npm run compile`): the tree has no page at its root" }];
  }
  for (const file of assets) writeIfChanged(join(root, basename(file)), readFileSync(file));
  writeIfChanged(join(root, PAGE_HTML), Buffer.from(renderPageHtml(site)));
  return [];
}

/** An incremental build leaves a file alone when its bytes are the same. */
function writeIfChanged(path: string, bytes: Buffer): void {
  if (existsSync(path) && readFileSync(path).equals(bytes)) return;
  writeFileSync(path, bytes);
}
