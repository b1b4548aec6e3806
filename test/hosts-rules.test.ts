// Units of the host rules: the strings each config format can hold, the documented limits,
// the counts a host is handed, precompressed siblings in `dts serve`, and an in-place build
// that drops the host files it no longer asks for.

import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../builder/build/build.js";
import { apacheString } from "../builder/hosts/apache.js";
import { CloudflareRules } from "../builder/hosts/cloudflare.js";
import type { HostContext, TreeFacts } from "../builder/hosts/common.js";
import { parseHosts } from "../builder/hosts/host-files.js";
import { NetlifyRules } from "../builder/hosts/netlify.js";
import { nginxString } from "../builder/hosts/nginx.js";
import { makeSite } from "../builder/site.js";
import { readFolder } from "../builder/tree/folder-store.js";
import { documentFolder, WHOLE_DOCUMENT } from "../builder/tree/layout.js";
import { DEFAULT_MAX_BODY } from "../builder/wire.js";
import { acceptedEncodings } from "../server/precompressed.js";
import { startServer } from "../server/serve.js";
import { documentPath, GEORGICS } from "./helpers/embedded.js";
import { rawRequest } from "./helpers/hosts-conformance.js";
import { copyEmbeddedWithLargeGeorgics } from "./helpers/tree.js";

const site = makeSite();
const temps: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "dts-hosts-"));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe("config strings", () => {
  it("quote what nginx and Apache can hold literally, and refuse the rest", () => {
    expect(nginxString('<a>; rel="next"')).toBe('"<a>; rel=\\"next\\""');
    expect(nginxString("a$b")).toBeNull();
    expect(nginxString("a\nb")).toBeNull();
    expect(apacheString('x "y"')).toBe('"x \\"y\\""');
    expect(apacheString("a\\b")).toBeNull();
  });

  it("reads --host names, all, and rejects unknown ones", () => {
    expect(parseHosts(["nginx", "apache,netlify"])).toEqual(["nginx", "apache", "netlify"]);
    expect(parseHosts(["all"])).toEqual(["nginx", "apache", "netlify", "cloudflare"]);
    expect(() => parseHosts(["iis"])).toThrow(/unknown host "iis"/);
  });
});

const ctx = (root: string): HostContext => ({
  root,
  out: root,
  site,
  upstream: "http://127.0.0.1:8080",
  maxBody: DEFAULT_MAX_BODY,
});

describe("documented limits", () => {
  const facts: TreeFacts = {
    files: 150_000,
    largest: { path: "document/x/_p.a.0", bytes: 30 * 1024 * 1024 },
    fullest: { path: "document/x", files: 60_000 },
  };
  const big = (): TreeFacts => facts;

  it("warn with the number and the limit when the tree is too large for Cloudflare", () => {
    const { warnings } = new CloudflareRules(ctx(temp())).finish(big);
    const text = warnings.map((w) => w.message).join("\n");
    expect(text).toContain("150,000 static asset files per Worker version (Workers Paid)");
    expect(text).toContain("over the limit of 100,000");
    expect(text).toContain("31,457,280 bytes per static asset file (document/x/_p.a.0), over the limit of 26,214,400");
  });

  it("warn for Netlify's folder limit and redirect count, and stay quiet for a small tree", () => {
    const rules = new NetlifyRules(ctx(temp()));
    const { warnings } = rules.finish(big);
    expect(warnings.map((w) => w.message).join("\n")).toContain("60,000 files in one folder of the publish directory");
    const small = new NetlifyRules(ctx(temp())).finish(() => ({ ...facts, fullest: { path: "x", files: 10 } }));
    expect(small.warnings).toEqual([]);
  });
});

describe("precompressed siblings", () => {
  it("are sent by dts serve to clients that accept them, with Vary, and dropped by a build without --compress", async () => {
    const work = temp();
    const dist = join(work, "dist");
    const corpus = copyEmbeddedWithLargeGeorgics(join(work, "corpus"));
    await build({ corpus, out: dist, site, hosts: { compress: true, hosts: ["nginx", "apache", "netlify", "cloudflare"] } });
    // The Georgics' whole document is large: alone in its file, which gets the siblings.
    const whole = readFolder(dist, documentFolder(GEORGICS))!.entries[WHOLE_DOCUMENT];
    expect(whole.offset).toBe(0);
    const file = join(dist, documentFolder(GEORGICS), whole.file);
    expect(existsSync(`${file}.gz`) && existsSync(`${file}.br`)).toBe(true);
    const server = await startServer({ dist, site, port: 0, host: "127.0.0.1" });
    try {
      const path = documentPath(`id=${GEORGICS}`);
      const plain = await rawRequest(server.url, path);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.equals(readFileSync(file))).toBe(true);
      const br = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers.vary).toBe("Accept-Encoding");
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      const gz = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "gzip, br;q=0" } });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
      expect(gz.headers.link).toBe(plain.headers.link);
      expect(gz.headers.etag).not.toBe(plain.headers.etag);
      // A small response has no sibling, and is sent as it is.
      const small = await rawRequest(server.url, "/api/dts", { headers: { "Accept-Encoding": "br" } });
      expect(small.headers["content-encoding"]).toBeUndefined();
      // A file rewritten after its siblings (a write through dts serve) is sent as it is now.
      const later = new Date(Date.now() + 5000);
      utimesSync(file, later, later);
      const stale = await rawRequest(server.url, path, { headers: { "Accept-Encoding": "br" } });
      expect(stale.headers["content-encoding"]).toBeUndefined();
      expect(stale.body.equals(plain.body)).toBe(true);
    } finally {
      await server.close();
    }
    // The same tree rebuilt in place with no host and no compression (host options stay with
    // the tree until a build names others): no sibling, no rule is left.
    await build({ corpus, out: dist, site, hosts: { hosts: [], compress: false } });
    expect(existsSync(`${file}.br`)).toBe(false);
    for (const name of ["_hosts", "_headers", "_redirects", ".htaccess", ".assetsignore", "collection/_/.htaccess"]) {
      expect(existsSync(join(dist, name)), name).toBe(false);
    }
  });

  it("reads Accept-Encoding with q-values", () => {
    expect(acceptedEncodings("gzip, deflate, br")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("br;q=0, gzip;q=0.5")).toEqual(["gzip"]);
    expect(acceptedEncodings("*")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("identity")).toEqual([]);
    expect(acceptedEncodings(null)).toEqual([]);
  });
});
