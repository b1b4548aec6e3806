// The server's log as an operator reads it: `dts serve`'s stdout. Request values are
// JSON-quoted, so a request can never forge a line (issue 8, finding 6).

import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GEORGICS } from "./helpers/embedded.js";
import { EMBEDDED, PROJECT } from "./helpers/tree.js";

describe("dts serve's log", () => {
  let work: string;
  let child: ChildProcess;
  let base: string;
  let stdout = "";
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-log-"));
    cpSync(EMBEDDED, join(work, "corpus"), { recursive: true });
    child = spawn(
      process.execPath,
      [join(PROJECT, "bin/dts.js"), "serve", "--corpus", join(work, "corpus"), "--dist", join(work, "dist"), "--port", "0"],
      {
        env: { ...process.env, DTS_TOKEN: "log-test-token-0123456789" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    base = await new Promise<string>((resolve, reject) => {
      const check = (): void => {
        const m = /(http:\/\/[^/\s]+)/.exec(stdout);
        if (m && /writes enabled/.test(stdout)) resolve(m[1]);
      };
      child.stdout!.on("data", check);
      child.once("exit", (code) => reject(new Error(`dts serve exited (${code}): ${stdout}`)));
    });
  }, 60_000);
  afterAll(() => {
    child?.kill("SIGTERM");
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("writes one line per write, with the request's values quoted, whatever they contain", async () => {
    const forged = `x\ndts serve: DELETE ${GEORGICS} 200 3 ms`;
    const r = await fetch(`${base}/api/dts/document?id=${encodeURIComponent(forged)}&ref=1`, { method: "PUT", body: "<l/>" });
    expect(r.status).toBe(401);
    await r.text();
    for (let i = 0; i < 50 && !/PUT/.test(stdout); i++) await new Promise((done) => setTimeout(done, 20));
    const lines = stdout.split("\n");
    // No line of the log starts with what the request tried to forge.
    expect(
      lines.filter((l) => l.startsWith("dts serve: DELETE")),
      stdout,
    ).toEqual([]);
    const put = lines.filter((l) => /^dts serve: "?PUT/.test(l));
    expect(put, stdout).toHaveLength(1);
    expect(put[0]).toContain(JSON.stringify(forged));
    expect(put[0]).toMatch(/ 401 /);
  });
});
