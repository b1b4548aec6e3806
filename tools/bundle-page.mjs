// Bundles the reader page (page/main.ts and page/reader.css) into one ES module and one
// style sheet, out/page/dts-reader.js and out/page/dts-reader.css, which `dts build` copies to
// the tree's root beside index.html. Run by `npm run compile`, after tsc. Fails when the
// script grows past 100 KB: the page is meant to stay small.

import { mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "out/page");
const MAX_SCRIPT_BYTES = 100 * 1024;

/** The newest modification time of the page's sources. */
function newestSource() {
  let newest = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  for (const name of readdirSync(join(root, "page"))) newest = Math.max(newest, statSync(join(root, "page", name)).mtimeMs);
  return newest;
}

const outputs = [join(out, "dts-reader.js"), join(out, "dts-reader.css")].map((f) => statSync(f, { throwIfNoEntry: false }));
if (outputs.every((s) => s && s.mtimeMs > newestSource())) process.exit(0);

mkdirSync(out, { recursive: true });
const options = { bundle: true, minify: true, legalComments: "none", logLevel: "warning" };
await build({ ...options, entryPoints: [join(root, "page/main.ts")], outfile: join(out, "dts-reader.js"), format: "esm", target: "es2020", platform: "browser" });
await build({ ...options, entryPoints: [join(root, "page/reader.css")], outfile: join(out, "dts-reader.css") });
const size = statSync(join(out, "dts-reader.js")).size;
if (size > MAX_SCRIPT_BYTES) throw new Error(`bundle-page: dts-reader.js is ${size} bytes, over the ${MAX_SCRIPT_BYTES} the page allows`);
