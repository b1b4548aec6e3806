// Netlify: the generated Edge Function and netlify.toml checked against their documented
// shape and against the tree (no rule per response: no `_redirects`, no `_headers`), and the
// Edge Function's handler (the same Hono reader, reading the tree over HTTP as it does from
// Netlify's CDN) run in Node behind a server that plays Netlify's part: the function for the
// API's path, the static files for the rest. There is no local Netlify runtime without
// Netlify's CLI downloading Deno, so this is not Netlify itself.

import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { makeSite } from "../builder/site.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { COMPUTED_REQUESTS, expectSameAnswer, STORED_REQUESTS } from "./helpers/hosts-conformance.js";
import { EMBEDDED, TEST_SITE_URL, treeFiles } from "./helpers/tree.js";

let work: string;
let dist: string;
let reference: RunningServer;
let netlify: Server;
let netlifyUrl: string;
const site = makeSite({ siteUrl: TEST_SITE_URL });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "dts-netlify-"));
  dist = join(work, "dist");
  await build({ corpus: EMBEDDED, out: dist, site, hosts: { hosts: ["netlify"] } });
  reference = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
  const fn = await import(pathToFileURL(join(dist, "_hosts/netlify/edge-functions/dts.mjs")).href);
  const routes = (fn.config.path as string[]).map((p) => new RegExp(`^${p.replace(/\*/g, ".*")}$`));
  netlify = createServer(async (req, res) => {
    const url = new URL(req.url!, netlifyUrl);
    let response: Response;
    if (routes.some((r) => r.test(url.pathname))) {
      response = await fn.default(new Request(url, { method: req.method, headers: req.headers as Record<string, string> }), {});
    } else {
      // The CDN: the publish directory's files by path.
      const file = resolve(dist, `.${decodeURIComponent(url.pathname)}`);
      // With an ETag, as a CDN sends (the reader then marks the answer cacheable).
      response =
        file.startsWith(dist + "/") && existsSync(file)
          ? new Response(readFileSync(file), { headers: { ETag: `"${createHash("sha1").update(readFileSync(file)).digest("hex")}"` } })
          : new Response("Not found", { status: 404 });
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((r) => netlify.listen(0, "127.0.0.1", r));
  netlifyUrl = `http://127.0.0.1:${(netlify.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((r) => netlify?.close(r));
  await reference?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the Netlify Edge Function's handler", () => {
  it("answers the conformance suite as dts serve does, reading the tree over HTTP", async () => {
    for (const path of [...STORED_REQUESTS, ...COMPUTED_REQUESTS]) await expectSameAnswer(reference.url, netlifyUrl, path);
    await expectSameAnswer(reference.url, netlifyUrl, "/api/dts/document?id=x", "OPTIONS");
  });
});

describe("the generated Netlify files", () => {
  it("declare the function on the API's base path", () => {
    const text = readFileSync(join(dist, "_hosts/netlify/edge-functions/dts.mjs"), "utf8");
    expect(text).toMatch(/^export \{ default \} from "[^"]+out\/server\/adapters\/netlify-edge\.js";$/m);
    const from = /from "([^"]+)"/.exec(text)![1];
    expect(existsSync(resolve(join(dist, "_hosts/netlify/edge-functions"), from))).toBe(true);
    expect(text).toContain('path: ["/api/dts","/api/dts/*"]');
    const toml = readFileSync(join(dist, "_hosts/netlify/netlify.toml"), "utf8");
    expect(toml).toMatch(/^\[build\]\n {2}publish = ".+"\n {2}edge_functions = ".+edge-functions"$/m);
  });

  it("write no rule per response: no _redirects, no _headers, whatever the corpus", async () => {
    expect(existsSync(join(dist, "_redirects"))).toBe(false);
    expect(existsSync(join(dist, "_headers"))).toBe(false);
    const report = await build({ corpus: EMBEDDED, out: join(work, "again"), site, hosts: { hosts: ["netlify"] } });
    const netlify = report.hostFiles!.hosts.find((h) => h.host === "netlify")!;
    expect(netlify.rules).toBe(0);
    expect(netlify.bytes).toBeLessThan(2048);
    // Every file of the publish directory, counted with its fullest folder against the 54,000 limit.
    expect(netlify.deploy.files).toBe(treeFiles(join(work, "again")).size);
    expect(netlify.deploy.fullest.files).toBeGreaterThan(1);
    expect(netlify.limits.map((l) => l.limit.limit)).toContain(54_000);
  });
});
