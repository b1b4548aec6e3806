// The package as published: what it promises about Node, and test suites without placeholders.

import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT } from "./helpers/tree.js";

const json = (file: string): { engines?: { node?: string }; dependencies?: Record<string, string> } =>
  JSON.parse(readFileSync(file, "utf8"));

/**
 * The lowest version a range admits from which every later version is admitted: the `>=x.y.z`
 * alternative of a range such as `^12.20.0 || >=16.0.0` (a caret alternative ends at its major).
 */
function minimum(range: string): number[] {
  const open = range
    .split("||")
    .map((part) => /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(part.trim()))
    .find((m) => m !== null);
  if (!open) throw new Error(`no ">=" alternative in: ${range}`);
  return [Number(open[1]), Number(open[2] ?? 0), Number(open[3] ?? 0)];
}

const compare = (a: number[], b: number[]): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

describe("package.json", () => {
  it("engines.node is at least every dependency's own minimum", () => {
    const ours = minimum(json(join(PROJECT, "package.json")).engines!.node!);
    for (const dep of Object.keys(json(join(PROJECT, "package.json")).dependencies ?? {})) {
      const theirs = json(join(PROJECT, "node_modules", dep, "package.json")).engines?.node;
      if (theirs) expect(compare(ours, minimum(theirs)), `${dep} needs node ${theirs}`).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("test suites", () => {
  it("hold no test that exists only to be skipped (an empty body)", () => {
    const empty = /\bit(?:\.\w+)*(?:\([^)]*\))?\([^,]+,\s*(?:async\s*)?\(\)\s*=>\s*\{\s*\}\s*\)/;
    const offenders = readdirSync(join(PROJECT, "test")).filter(
      (f) => f.endsWith(".test.ts") && empty.test(readFileSync(join(PROJECT, "test", f), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});

/** `npm start` with `args` in a copy of the project, until it serves; then stopped. Returns what it printed. */
async function npmStart(project: string, args: string[]): Promise<string> {
  const child = spawn("npm", ["start", "--", ...args], { cwd: project, detached: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        if (/dts serve: http:\/\/\S+/.test(out)) resolve(out);
      });
      child.on("exit", (code) => reject(new Error(`npm start exited ${code}: ${out}`)));
    });
  } finally {
    process.kill(-child.pid!, "SIGTERM");
  }
}

describe("npm start", () => {
  it("compiles only when sources changed, and passes its arguments to dts serve", async () => {
    const project = mkdtempSync(join(tmpdir(), "dts-start-"));
    try {
      for (const name of [
        "bin",
        "builder",
        "bench",
        "check",
        "cli",
        "deploy",
        "server",
        "tools",
        "page",
        "corpus",
        "out",
        "package.json",
        "tsconfig.json",
      ]) {
        cpSync(join(PROJECT, name), join(project, name), { recursive: true, preserveTimestamps: true });
      }
      symlinkSync(join(PROJECT, "node_modules"), join(project, "node_modules"));
      const first = await npmStart(project, ["--port", "0"]);
      expect(first).not.toMatch(/:8080\//);
      const compiled = statSync(join(project, "out/cli/main.js")).mtimeMs;
      const bundled = statSync(join(project, "out/server/adapters/nginx-njs.bundle.js")).mtimeMs;
      const page = statSync(join(project, "out/page/dts-reader.js")).mtimeMs;
      await npmStart(project, ["--port", "0"]);
      expect(statSync(join(project, "out/cli/main.js")).mtimeMs).toBe(compiled);
      expect(statSync(join(project, "out/server/adapters/nginx-njs.bundle.js")).mtimeMs).toBe(bundled);
      expect(statSync(join(project, "out/page/dts-reader.js")).mtimeMs).toBe(page);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
