// A real Apache (Debian's apache2) serving the embedded corpus with the `.htaccess` files
// `dts build --target apache` writes, and `dts serve` as the upstream of what the tree does not
// hold: the same conformance suite as `dts serve`.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { CATULLUS, documentPath } from "./helpers/embedded.js";
import {
  COMPUTED_REQUESTS,
  ESCAPE_REQUESTS,
  expectSameAnswer,
  freePort,
  rawRequest,
  STORED_REQUESTS,
} from "./helpers/hosts-conformance.js";
import { EMBEDDED } from "./helpers/tree.js";

const MODULES = "/usr/lib/apache2/modules";
function apacheBinary(): string | null {
  for (const candidate of ["/usr/sbin/apache2", "apache2"]) {
    try {
      execFileSync(candidate, ["-v"], { stdio: "ignore" });
      return existsSync(join(MODULES, "mod_rewrite.so")) ? candidate : null;
    } catch {
      // not this one
    }
  }
  return null;
}
const APACHE = apacheBinary();
if (!APACHE) console.warn("apache2 is not installed (apt-get install apache2): skipping the Apache integration test");

describe.skipIf(!APACHE)("Apache with the generated .htaccess files", () => {
  let work: string;
  let dist: string;
  let upstream: RunningServer;
  let apache: ChildProcess;
  let apacheUrl: string;
  let stderr = "";

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dts-apache-"));
    chmodSync(work, 0o755);
    dist = join(work, "dist");
    const site = makeSite();
    // The upstream must be known when the rules are written: start dts serve on a free port first.
    const upPort = await freePort();
    await build({ corpus: EMBEDDED, out: dist, site, hosts: { hosts: ["apache"], upstream: `http://127.0.0.1:${upPort}` } });
    upstream = await startServer({ dist, site, port: upPort, host: "127.0.0.1" });
    const port = await freePort();
    apacheUrl = `http://127.0.0.1:${port}`;
    const modules = ["mpm_event", "authz_core", "mime", "dir", "alias", "rewrite", "headers", "proxy", "proxy_http", "env"];
    const root = process.getuid?.() === 0;
    writeFileSync(
      join(work, "httpd.conf"),
      `ServerRoot ${work}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${join(work, "httpd.pid")}
ErrorLog ${join(work, "error.log")}
LogLevel warn ${process.env.DTS_APACHE_TRACE ? "rewrite:trace3" : ""}
${modules.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`).join("\n")}
${root ? "User nobody\nGroup nogroup" : ""}
TypesConfig /etc/mime.types
DocumentRoot ${work}
<Directory />
    AllowOverride None
    Require all denied
</Directory>
Alias /api/dts ${dist}
<Directory ${dist}>
    AllowOverride All
    Require all granted
</Directory>
`,
    );
    apache = spawn(APACHE!, ["-f", join(work, "httpd.conf"), "-DFOREGROUND"], { stdio: ["ignore", "ignore", "pipe"] });
    apache.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    for (let i = 0; ; i++) {
      if (apache.exitCode !== null || i > 100) throw new Error(`apache did not start: ${stderr}${readLog(work)}`);
      try {
        await rawRequest(apacheUrl, "/__ready");
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });

  afterAll(async () => {
    if (apache && apache.exitCode === null) {
      const exited = new Promise((r) => apache.once("exit", r));
      apache.kill("SIGTERM");
      await exited;
    }
    await upstream?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("gives stored and computed answers the same status, headers and bytes as dts serve", async () => {
    try {
      for (const path of [...STORED_REQUESTS, ...COMPUTED_REQUESTS]) await expectSameAnswer(upstream.url, apacheUrl, path);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${readLog(work)}`);
    }
  });

  it("answers HEAD, OPTIONS and writes as dts serve does", async () => {
    for (const path of STORED_REQUESTS.slice(0, 8)) await expectSameAnswer(upstream.url, apacheUrl, path, "HEAD");
    await expectSameAnswer(upstream.url, apacheUrl, "/api/dts/document?id=x", "OPTIONS");
    await expectSameAnswer(upstream.url, apacheUrl, "/api/dts/document?id=x&ref=1", "PUT");
  });

  it("never serves a file outside the tree, nor the tree's data files or rules", async () => {
    const catalog = readFileSync(join(dist, "_catalog.json"), "utf8").slice(0, 30);
    for (const path of [...ESCAPE_REQUESTS, "/api/dts/.htaccess", "/api/dts/collection/_/.htaccess"]) {
      const r = await rawRequest(apacheUrl, path);
      expect([400, 403, 404], `${path}: status`).toContain(r.status);
      const body = r.body.toString("utf8");
      expect(body, path).not.toMatch(/root:x:0:0|RewriteEngine/);
      expect(body, path).not.toContain(catalog);
    }
  });

  it("serves the stored responses from files: they still answer with dts serve stopped", async () => {
    await upstream.close();
    for (const path of STORED_REQUESTS.filter((p) => !p.includes("phi0914"))) {
      const r = await rawRequest(apacheUrl, path);
      expect(r.status, path).toBe(200);
    }
    const range = await rawRequest(apacheUrl, documentPath(`id=${CATULLUS}&start=4&end=6`));
    expect(range.status).toBe(503);
  });
});

function readLog(work: string): string {
  try {
    return readFileSync(join(work, "error.log"), "utf8");
  } catch {
    return "";
  }
}
