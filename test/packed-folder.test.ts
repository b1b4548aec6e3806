// The packed-folder layout (builder/tree/packed-folder.ts), as a reader uses it: every response
// packed is found by name and read back byte for byte, whatever the pack size and block size;
// names not packed are not found; the limits on pack files hold.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  entryIn,
  type FolderManifest,
  findEntry,
  isPackingFile,
  locate,
  manifestHead,
  manifestText,
  type PackedEntries,
  type PackedFolder,
  type PackOptions,
  packFolder,
  parseBlock,
  parseManifest,
  type StoredBody,
} from "../builder/tree/packed-folder.js";

const encoder = new TextEncoder();
const tag = (body: Uint8Array): string => `"${createHash("sha256").update(body).digest("hex").slice(0, 24)}"`;
const options = (o: Partial<PackOptions> = {}): PackOptions => ({
  packBytes: 1000,
  aloneBytes: 2000,
  blockEntries: 8,
  etag: tag,
  hash: (text) => createHash("sha1").update(text).digest("hex").slice(0, 16),
  ...o,
});

/** Responses named like a document folder's, of varied sizes (one larger than a pack). */
function responses(count: number, big = 0): StoredBody[] {
  const out: StoredBody[] = [];
  for (let i = 0; i < count; i++) {
    const text = `<l n="${i}">${"arma virumque ".repeat((i * 7) % 23)}</l>`;
    out.push({
      name: `r.${Math.floor(i / 10) + 1}.${i % 10}.xml`,
      head: { status: 200, type: "application/tei+xml", link: `<x>; rel="n${i}"` },
      body: encoder.encode(text),
    });
  }
  if (big)
    out.push({ name: "_.xml", head: { status: 200, type: "application/tei+xml", link: "<x>" }, body: encoder.encode("w".repeat(big)) });
  return out;
}

/** Reads a response back as a reader would: manifest, maybe a block, then its bytes. */
function readBack(folder: PackedFolder, name: string): { body: string; entry: PackedEntries[string] } | null {
  const files = new Map(folder.files);
  const manifest = parseManifest(manifestText(folder.manifest))!;
  const where = locate(manifest, name);
  if (!where) return null;
  const entry = "entry" in where ? where.entry : entryIn(parseBlock(new TextDecoder().decode(files.get(where.block)!))!, name);
  if (!entry) return null;
  const bytes = files.get(entry.file)!;
  return { body: new TextDecoder().decode(bytes.subarray(entry.offset, entry.offset + entry.length)), entry };
}

describe("a packed folder", () => {
  for (const [label, o] of [
    ["packs of 1,000 bytes, blocks of 8", options()],
    ["one pack, one manifest", options({ packBytes: 1 << 20, blockEntries: 1000 })],
    ["one file per body (packBytes 0)", options({ packBytes: 0 })],
    ["blocks of 1", options({ blockEntries: 1 })],
  ] as const) {
    it(`reads every response back byte for byte, with its head and tag: ${label}`, () => {
      const input = responses(57, 2500);
      const folder = packFolder(input, o);
      for (const r of input) {
        const got = readBack(folder, r.name);
        expect(got, r.name).not.toBeNull();
        expect(got!.body).toBe(new TextDecoder().decode(r.body));
        expect(got!.entry).toMatchObject({ ...r.head, etag: tag(r.body) });
      }
    });
  }

  it("finds no name it does not hold, before, between or after the packed ones", () => {
    const folder = packFolder(responses(57), options());
    for (const name of ["", "_", "a", "r.1.0.xm", "r.1.0.xmlz", "r.3.5", "r.9.9.xml", "zzz", "__proto__", "constructor", "toString"]) {
      expect(readBack(folder, name), name).toBeNull();
    }
  });

  it("keeps packs within packBytes, except a body larger than it, which is alone", () => {
    const folder = packFolder(responses(57, 2500), options());
    const packs = folder.files.filter(([n]) => n.startsWith("_p."));
    expect(packs.length).toBeGreaterThan(3);
    for (const [name, data] of packs) {
      if (data.length > 1000) expect(data.length, name).toBe(2500);
    }
    expect(packs.reduce((s, [, d]) => s + d.length, 0)).toBe(responses(57, 2500).reduce((s, r) => s + r.body.length, 0));
  });

  it("splits a manifest over blockEntries into blocks, and keeps a small one whole", () => {
    const small = packFolder(responses(8), options());
    expect(small.manifest.entries && Object.keys(small.manifest.entries)).toHaveLength(8);
    expect(small.manifest.blocks).toBeUndefined();
    const large = packFolder(responses(57), options());
    expect(large.manifest.entries).toBeUndefined();
    expect(large.manifest.blocks).toHaveLength(8);
    expect(large.files.filter(([n]) => n.startsWith("_m.")).length).toBe(8);
  });

  it("names each file by what it holds: a name is its bytes, and a changed body's pack gets a new one", () => {
    const a = packFolder(responses(57), options());
    const changed = responses(57);
    changed[3] = { ...changed[3], body: encoder.encode("<l>changed</l>") };
    const b = packFolder(changed, options());
    const bytes = new Map([...a.files, ...b.files].map(([n, d]) => [n, Buffer.from(d).toString("hex")]));
    for (const [n, d] of [...a.files, ...b.files]) expect(Buffer.from(d).toString("hex"), n).toBe(bytes.get(n));
    const packOf = (f: PackedFolder, name: string): string => f.entries[name].file;
    expect(packOf(b, changed[3].name)).not.toBe(packOf(a, changed[3].name));
    // The same content gives the same names: two builds of one corpus give one tree.
    expect(packFolder(responses(57), options()).files.map(([n]) => n)).toEqual(a.files.map(([n]) => n));
    for (const [n] of [...a.files, ...b.files]) expect(isPackingFile(n), n).toBe(true);
    expect(isPackingFile("r.1.1.xml")).toBe(false);
    expect(isPackingFile("_manifest.json")).toBe(false);
  });

  it("keeps kept entries where they lie and writes only the changed bodies", () => {
    const before = packFolder(responses(12), options({ blockEntries: 100 }));
    const input = responses(12);
    const items = input.map((r, i) =>
      i === 5 ? { ...r, body: encoder.encode("<l>new</l>") } : { name: r.name, entry: before.entries[r.name] },
    );
    const after = packFolder(items, options({ blockEntries: 100 }));
    expect(after.files).toHaveLength(1);
    expect(new TextDecoder().decode(after.files[0][1])).toBe("<l>new</l>");
    const files = new Map([...before.files, ...after.files]);
    for (const [i, r] of input.entries()) {
      const entry = after.entries[r.name];
      const body = new TextDecoder().decode(files.get(entry.file)!.subarray(entry.offset, entry.offset + entry.length));
      expect(body).toBe(i === 5 ? "<l>new</l>" : new TextDecoder().decode(r.body));
    }
  });

  it("puts a body of aloneBytes or more in a file of its own, at offset 0", () => {
    const folder = packFolder(responses(20, 2100), options({ packBytes: 100_000 }));
    const big = folder.entries["_.xml"];
    expect(big.offset).toBe(0);
    expect(folder.files.find(([n]) => n === big.file)![1].length).toBe(2100);
  });

  it("one file per body (packBytes 0): each body whole in its own file", () => {
    const input = responses(12);
    const folder = packFolder(input, options({ packBytes: 0, blockEntries: 100 }));
    expect(folder.files).toHaveLength(12);
    for (const r of input) {
      const e = folder.entries[r.name];
      expect(e.offset).toBe(0);
      expect(folder.files.find(([n]) => n === e.file)![1]).toEqual(r.body);
    }
  });

  it("a manifest of another version, or not JSON, is not read as one", () => {
    expect(parseManifest('{"_.xml":{"status":200,"type":"x","link":""}}')).toBeNull();
    expect(parseManifest("not json")).toBeNull();
    // A v2 manifest (one JSON object, as the previous version of this format wrote it).
    expect(parseManifest(JSON.stringify({ v: 2, gen: "g", entries: {} }))).toBeNull();
    expect(parseManifest(manifestText({ v: 3, entries: {} } satisfies FolderManifest))).toEqual({ v: 3, entries: {} });
    expect(parseManifest('{"v":3,"gen":"g"}\n["a",broken\n')).toBeNull();
  });

  it("finds one entry in a manifest's or a block's bytes by a binary search, and no other name", () => {
    const enc = (text: string): Uint8Array => encoder.encode(text);
    for (const count of [1, 2, 3, 57, 100]) {
      const folder = packFolder(responses(count), options({ blockEntries: 100 }));
      const bytes = enc(manifestText(folder.manifest));
      for (const [name, entry] of Object.entries(folder.entries)) expect(findEntry(bytes, name), `${count}: ${name}`).toEqual(entry);
    }
    const folder = packFolder(responses(57), options({ blockEntries: 100 }));
    const bytes = enc(manifestText(folder.manifest));
    // Names that are prefixes, extensions or neighbours of stored ones, before and after all, and names JSON would escape.
    for (const name of ["r.1.0.xm", "r.1.0.xml.", "r.1", "", "_", "zzz", "r.9.9.xml", '"', 'r.1.0.xml","x', "__proto__"])
      expect(findEntry(bytes, name), name).toBeNull();
    expect(findEntry(enc('{"v":3,"gen":"g"}\n'), "r.1.xml")).toBeNull();
    expect(findEntry(enc("no head line"), "r.1.xml")).toBeNull();
    const blocked = packFolder(responses(57), options());
    const blockBytes = blocked.files.find(([n]) => n.startsWith("_m."))![1];
    for (const name of Object.keys(parseBlock(new TextDecoder().decode(blockBytes))!)) {
      expect(findEntry(blockBytes, name)).toEqual(blocked.entries[name]);
    }
    expect(manifestHead(enc(manifestText(blocked.manifest)))!.blocks).toHaveLength(8);
    expect(manifestHead(bytes)!.blocks).toBeUndefined();
  });
});
