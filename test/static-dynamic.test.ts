// A response read from the tree and the same response computed by the server are identical:
// one server serves the full tree, another a copy with every stored response removed (only
// whole documents, indexes and the catalogue left), and every stored request is asked of both.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CitedText } from "../builder/citation/cited-text.js";
import { collectionResponses, documentResponses, serviceResponses } from "../builder/responses.js";
import { readFolder } from "../builder/tree/folder-store.js";
import { CATALOG_FILE, documentFolder, INDEX_FILE, MANIFEST, WHOLE_DOCUMENT } from "../builder/tree/layout.js";
import { isPackingFile, manifestText } from "../builder/tree/packed-folder.js";
import { indexFromJson, libraryFromJson } from "../builder/tree/stored-data.js";
import { requestUrl } from "../builder/urls.js";
import { type RunningServer, startServer } from "../server/serve.js";
import { buildTree, EMBEDDED, HAS_SHARED, SHARED, SHARED_SKIP, storedText, TEST_SITE_URL } from "./helpers/tree.js";

/**
 * Removes every stored response but the whole documents (the sources ranges are cut from),
 * keeping indexes, the catalogue and the site settings: each document folder's manifest then
 * names its whole document only.
 */
function stripResponses(root: string, folder = ""): number {
  let removed = 0;
  const dir = join(root, folder);
  const contents = readFolder(root, folder);
  const whole = folder.startsWith("document/") ? contents?.entries[WHOLE_DOCUMENT] : undefined;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) removed += stripResponses(root, folder ? `${folder}/${name}` : name);
    else if (contents && (name === MANIFEST || isPackingFile(name)) && name !== whole?.file) {
      rmSync(path);
      removed++;
    }
  }
  if (whole) writeFileSync(join(dir, MANIFEST), manifestText({ v: 3, entries: { [WHOLE_DOCUMENT]: whole } }));
  return removed;
}

async function compare(corpus: string, sample: (i: number) => boolean): Promise<{ compared: number; computed: number }> {
  const { dist, site } = await buildTree(corpus, { siteUrl: TEST_SITE_URL });
  const stripped = mkdtempSync(join(tmpdir(), "dts-stripped-"));
  cpSync(dist, stripped, { recursive: true });
  expect(stripResponses(stripped)).toBeGreaterThan(0);
  const servers: RunningServer[] = [];
  try {
    servers.push(await startServer({ dist, site, port: 0, host: "127.0.0.1" }));
    servers.push(await startServer({ dist: stripped, site, port: 0, host: "127.0.0.1" }));
    const library = libraryFromJson(readFileSync(join(dist, CATALOG_FILE), "utf8"));
    const requests = [...serviceResponses(site, ["GET"]), ...collectionResponses(site, library)].map((s) => s.request);
    for (const [id, text] of library.texts) {
      if (!text.hasText) continue;
      const folder = join(dist, documentFolder(id));
      const source = Buffer.from(storedText(dist, `${documentFolder(id)}/${WHOLE_DOCUMENT}`)!, "utf8");
      const cited = new CitedText(id, indexFromJson(readFileSync(join(folder, INDEX_FILE), "utf8")), source);
      for (const s of documentResponses(site, cited)) requests.push(s.request);
    }
    let compared = 0;
    let computed = 0;
    for (let i = 0; i < requests.length; i++) {
      if (!sample(i)) continue;
      const url = requestUrl(site, requests[i]);
      const [a, b] = await Promise.all(servers.map((s) => fetch(s.url + url)));
      const label = `${url}`;
      expect(b.status, label).toBe(a.status);
      for (const h of ["content-type", "link", "access-control-allow-origin"])
        expect(b.headers.get(h), `${label} ${h}`).toBe(a.headers.get(h));
      expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer())), label).toBe(true);
      // The first was read from the tree, the second computed.
      expect(a.headers.get("etag"), label).toBeTruthy();
      // Computed Document answers have a tag too (for If-Match), but are not cacheable as stored ones.
      if (b.headers.get("cache-control") === "no-cache") computed++;
      compared++;
    }
    return { compared, computed };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dist, { recursive: true, force: true });
    rmSync(stripped, { recursive: true, force: true });
  }
}

describe("stored and computed responses are byte-identical", () => {
  it("for every stored request of the embedded corpus", async () => {
    const { compared, computed } = await compare(EMBEDDED, () => true);
    expect(compared).toBeGreaterThan(200);
    // Everything but the whole documents (the sources themselves) was computed.
    expect(computed).toBeGreaterThan(compared - 10);
  });
});

describe.skipIf(!HAS_SHARED)("stored and computed responses are byte-identical on real corpora", () => {
  it("for a sample of every kind of request on Homer (Iliad, hymn)", async () => {
    const { compared } = await compare(join(SHARED, "greekLit"), (i) => i < 200 || i % 97 === 0);
    expect(compared).toBeGreaterThan(300);
  });
});
if (!HAS_SHARED) console.warn(SHARED_SKIP);
