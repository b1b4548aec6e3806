// Compiles the sources to out/ once before any suite runs: the suites that run the CLI (or
// its worker threads) use the compiled JavaScript, and compiling in several suites at once
// would let one read a file another is writing. Type-checks test/ at the same time (vitest
// itself only strips types), so a suite that no longer matches the code fails the run. Then
// bundles the nginx handler (tools/bundle-njs.mjs, skipped when it is newer than the sources),
// which the nginx suites load into a real nginx, and the reader page (tools/bundle-page.mjs,
// type-checked against the DOM first), which every build copies into its tree.

import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const project = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Runs a Node script with `args`; resolves to its output when it fails, to null when it passes. */
function run(script: string, args: string[]): Promise<string | null> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(project, script), ...args], { cwd: project });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d));
    child.stderr.on("data", (d: Buffer) => (output += d));
    child.on("error", fail);
    child.on("close", (code) => done(code === 0 ? null : output));
  });
}

export default async function setup(): Promise<void> {
  const tsc = "node_modules/typescript/bin/tsc";
  const [build, tests, page] = await Promise.all([
    run(tsc, ["-p", project]),
    run(tsc, ["--noEmit", "-p", join(project, "test")]),
    run(tsc, ["-p", join(project, "page")]),
  ]);
  if (build !== null) throw new Error(`tsc failed:\n${build}`);
  if (tests !== null) throw new Error(`tsc found type errors in test/:\n${tests}`);
  if (page !== null) throw new Error(`tsc found type errors in page/:\n${page}`);
  const bundle = await run("tools/bundle-njs.mjs", []);
  if (bundle !== null) throw new Error(`bundling the nginx handler failed:\n${bundle}`);
  // Before any suite builds a tree: the build copies the reader page's bundle into it.
  const pageBundle = await run("tools/bundle-page.mjs", []);
  if (pageBundle !== null) throw new Error(`bundling the reader page failed:\n${pageBundle}`);
}
