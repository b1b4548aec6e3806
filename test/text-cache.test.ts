// The server's caches are bounded by what they hold, not by how many things: a parsed document
// counts its source and index bytes (issue 14, goal 2: memory bounded by the largest document).

import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskStorage } from "../server/adapters/disk-storage.js";
import { Lru } from "../server/lru.js";
import { TreeReader } from "../server/reader.js";
import { buildTree, EMBEDDED } from "./helpers/tree.js";

describe("Lru", () => {
  it("drops the least recently used entries once their cost passes the bound", () => {
    const lru = new Lru<string>(10, (_, v) => v.length);
    lru.set("a", "xxxx");
    lru.set("b", "xxxx");
    lru.get("a");
    lru.set("c", "xxxx");
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("xxxx");
    expect(lru.stats).toEqual({ entries: 2, cost: 8 });
  });

  it("keeps no value too costly for it, not even the older one of its key", () => {
    const lru = new Lru<string>(10, (_, v) => v.length, 5);
    lru.set("a", "xx");
    lru.set("a", "xxxxxx");
    expect(lru.get("a")).toBeUndefined();
    expect(lru.stats).toEqual({ entries: 0, cost: 0 });
  });
});

describe("the parsed documents a reader keeps", () => {
  let dist: string;
  beforeAll(async () => {
    ({ dist } = await buildTree(EMBEDDED));
  });
  afterAll(() => {
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  async function readerOver(textCacheBytes?: number): Promise<{ reader: TreeReader; ids: string[] }> {
    const storage = diskStorage(dist);
    const site = JSON.parse(new TextDecoder().decode((await storage.read("_site.json"))!.body));
    const reader = new TreeReader({ site, storage, textCacheBytes });
    const library = await reader.loadLibrary();
    const ids = [...library.texts].filter(([, t]) => t.hasText).map(([id]) => id);
    return { reader, ids };
  }

  it("count their source and index bytes, and stay within the bound as documents come and go", async () => {
    const { reader: unbounded, ids } = await readerOver();
    expect(ids.length).toBeGreaterThanOrEqual(4);
    const sizes: number[] = [];
    for (const id of ids) {
      const before = unbounded.textCacheStats.bytes;
      const text = await unbounded.loadText(id);
      expect(text?.units.length, id).toBeGreaterThan(0);
      sizes.push(unbounded.textCacheStats.bytes - before);
    }
    // Each is counted as read: at least its source, more than what a pending read counts.
    for (const [i, id] of ids.entries()) expect(sizes[i], id).toBeGreaterThan((await unbounded.loadText(id))!.source.length);

    // A bound that holds the two largest documents but not all of them.
    const sorted = [...sizes].sort((a, b) => b - a);
    const bound = sorted[0] + sorted[1];
    const { reader } = await readerOver(bound);
    for (let round = 0; round < 2; round++) {
      for (const id of ids) {
        const text = await reader.loadText(id);
        // Read again after being dropped, the same document.
        expect(text?.units.map((u) => u.ref)).toEqual((await unbounded.loadText(id))?.units.map((u) => u.ref));
        expect(reader.textCacheStats.bytes).toBeLessThanOrEqual(bound);
      }
    }
    expect(reader.textCacheStats.entries).toBeLessThan(ids.length);
    expect(reader.textCacheStats.entries).toBeGreaterThanOrEqual(1);
  });

  it("keep nothing for ids without a text, however many a client sends", async () => {
    const { reader, ids } = await readerOver();
    await reader.loadText(ids[0]);
    const before = reader.textCacheStats;
    const unknown = Array.from({ length: 200 }, (_, i) => `urn:nothing:${i}:${"x".repeat(2000)}`);
    expect(await Promise.all(unknown.map((id) => reader.loadText(id)))).toEqual(unknown.map(() => null));
    expect(reader.textCacheStats).toEqual(before);
  });
});
