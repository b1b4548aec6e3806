// Compiles the sources to out/ once before any suite runs: the suites that run the CLI (or
// its worker threads) use the compiled JavaScript, and compiling in several suites at once
// would let one read a file another is writing.

import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const project = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = spawnSync(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", project], { encoding: "utf8" });
  if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
}
