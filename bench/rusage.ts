// Runs a Node script in this process and, when it exits, writes this process's resource usage
// (CPU seconds and peak RSS, worker threads included) as JSON to a file. The benchmark uses it in
// place of `/usr/bin/time -v` where that is not installed.
//
//   node out/bench/rusage.js <usage.json> <script.js> [args...]

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [usageFile, script, ...args] = process.argv.slice(2);
if (!usageFile || !script) {
  console.error("usage: rusage <usage.json> <script.js> [args...]");
  process.exit(2);
}
process.argv = [process.argv[0], resolve(script), ...args];
process.on("exit", () => {
  const u = process.resourceUsage();
  writeFileSync(usageFile, JSON.stringify({ user: u.userCPUTime / 1e6, sys: u.systemCPUTime / 1e6, maxRss: u.maxRSS * 1024 }));
});
await import(pathToFileURL(resolve(script)).href);
