// Netlify: the generated `_redirects`, `_headers` and Edge Function checked against their
// documented syntax and against the tree, and the Edge Function's handler (the same Hono
// reader, reading the tree over HTTP as it does from Netlify's CDN) run in Node behind a
// server that plays Netlify's part: the function for the API's path, the static files for
// the rest. There is no local Netlify runtime without Netlify's CLI downloading Deno, so this
// is not Netlify itself.

import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { parseRequest } from "../builder/request.js";
import { makeSite } from "../builder/site.js";
import { MANIFEST, requestToPath } from "../builder/tree/layout.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { COMPUTED_REQUESTS, expectSameAnswer, STORED_REQUESTS } from "./helpers/hosts-conformance.js";
import { EMBEDDED } from "./helpers/tree.js";

let work: string;
let dist: string;
let reference: RunningServer;
let netlify: Server;
let netlifyUrl: string;
const site = makeSite();

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
  it("declare the function on the API's base path, bypassed to the static rules on error", () => {
    const text = readFileSync(join(dist, "_hosts/netlify/edge-functions/dts.mjs"), "utf8");
    expect(text).toMatch(/^export \{ default \} from "[^"]+out\/server\/adapters\/netlify-edge\.js";$/m);
    const from = /from "([^"]+)"/.exec(text)![1];
    expect(existsSync(resolve(join(dist, "_hosts/netlify/edge-functions"), from))).toBe(true);
    expect(text).toContain('path: ["/api/dts","/api/dts/*"]');
    expect(text).toContain('onError: "bypass"');
    const toml = readFileSync(join(dist, "_hosts/netlify/netlify.toml"), "utf8");
    expect(toml).toMatch(/^\[build\]\n {2}publish = ".+"\n {2}edge_functions = ".+edge-functions"$/m);
  });

  it("write _redirects in Netlify's syntax, each rule naming the file requestToPath gives", () => {
    const lines = readFileSync(join(dist, "_redirects"), "utf8")
      .split("\n")
      .filter((l) => l && !l.startsWith("#"));
    expect(lines.length).toBeGreaterThan(200);
    let params = Infinity;
    for (const line of lines) {
      // from, query parameters, to, status: whitespace-separated, no placeholder values.
      const tokens = line.split(/ +/);
      const [from, to, status] = [tokens[0], tokens[tokens.length - 2], tokens[tokens.length - 1]];
      const query = tokens.slice(1, -2);
      expect(from, line).toMatch(/^\/\S*$/);
      expect(status, line).toMatch(/^(200|404)!$/);
      for (const q of query) expect(q, line).toMatch(/^[a-zA-Z]+=[^:\s]\S*$/);
      // Most specific first: Netlify takes the first rule that matches.
      expect(query.length, line).toBeLessThanOrEqual(params);
      if (from !== "/api/dts/") params = Math.min(params, query.length);
      const req = parseRequest(new URL(`${from}?${query.join("&")}`, "http://x"), site);
      expect(req && req.kind !== "bad" ? `/${requestToPath(req)}` : null, line).toBe(to);
      expect(existsSync(join(dist, to)), to).toBe(true);
      const slash = to.lastIndexOf("/");
      const manifest = JSON.parse(readFileSync(join(dist, to.slice(0, slash), MANIFEST), "utf8"));
      expect(`${manifest[to.slice(slash + 1)].status}!`, line).toBe(status);
    }
  });

  it("write _headers in Netlify's syntax, with each stored file's Link and type from its manifest", () => {
    const text = readFileSync(join(dist, "_headers"), "utf8");
    const blocks = text
      .replace(/^#.*\n/gm, "")
      .split(/\n(?=\/)/)
      .map((b) => b.trimEnd());
    expect(blocks[0]).toMatch(
      /^\/\*\n {2}Access-Control-Allow-Origin: \*\n {2}Access-Control-Expose-Headers: .*Link.*\n {2}Cache-Control: .+$/,
    );
    for (const block of blocks.slice(1)) {
      const [path, ...headers] = block.split("\n");
      expect(path).toMatch(/^\/\S+$/);
      for (const h of headers) expect(h, path).toMatch(/^ {2}[A-Za-z-]+: \S.*$/);
      const name = path.slice(path.lastIndexOf("/") + 1);
      const entry = JSON.parse(readFileSync(join(dist, dirname(path), MANIFEST), "utf8"))[name];
      expect(headers, path).toEqual([`  Content-Type: ${entry.type}`, `  Link: ${entry.link}`]);
    }
  });
});
