// A folder of stored responses, packed: bodies concatenated into a few pack files, and a
// manifest saying, for each response (by the name `requestToPath` gives it), its status and
// headers and where its bytes lie. Static hosts count files (Cloudflare Workers Free: 20,000),
// and a corpus has hundreds of thousands of passages; packs make the file count grow with the
// documents, not the passages. A manifest too large to read per request (the Iliad's has some
// 16,000 entries) is split into blocks, found by a binary search over their first names.
//
// A manifest file is a head line (version, blocks) and, for a small folder, one line
// per entry (`["r.1.xml",{...}]`, sorted); a block file is a head line and its entries' lines.
// A reader without caches (nginx's njs) finds one entry by a binary search over the lines'
// bytes and parses that line only: parsing, or even decoding, a whole 200 kB block per request
// was what made it slow.
//
// Packing is a policy, not a second layout: with `packBytes: 0` every body is alone in its
// file (what a host that can only send whole files needs, Apache), and the manifest says so in
// the same form. Every reader goes through `locate` and `entryIn`.
//
// Pack and block files are named by a hash of what they hold (`_p.<hash>`, `_m.<hash>.json`),
// never rewritten in place: a folder is updated by writing new files, then its manifest, then
// removing the files no entry names any more, so a reader holding the old manifest still finds
// its bytes. An update keeps the bodies that did not change where they are (`KeptEntry`), so a
// one-line edit writes one small pack, not the document again.
//
// The functions here are pure and synchronous (no I/O, no classes): the Worker, the edge
// function, `dts serve` and nginx's JavaScript module run the same lookup.

import { concatBytes } from "../bytes.js";

/** The status and headers of a stored response. */
export interface StoredHead {
  status: number;
  type: string;
  link: string;
}

/** A stored response in a packed folder: its head, its strong tag, and where its body lies. */
export interface PackedEntry extends StoredHead {
  etag: string;
  /** The folder-relative file holding the body. */
  file: string;
  offset: number;
  length: number;
}

export type PackedEntries = Record<string, PackedEntry>;

/** A block of entries, from `from` (its first name) up to the next block's first name. */
export interface ManifestBlock {
  from: string;
  file: string;
}

/** A folder's manifest: its entries, or (many entries) the blocks that hold them. */
export interface FolderManifest {
  v: 3;
  entries?: PackedEntries;
  blocks?: ManifestBlock[];
}

export const MANIFEST_VERSION = 3;

export interface PackOptions {
  /** Largest pack file (a body larger than this is alone in its file); 0: one file per body. */
  packBytes: number;
  /** A body at least this large is alone in its file (so a host can send it whole, compressed). */
  aloneBytes: number;
  /** Most entries in a manifest before it is split into blocks of this many. */
  blockEntries: number;
  /** The strong tag of a body (one function for stored and computed responses). */
  etag(body: Uint8Array): string;
  /** A short hash of a text, in `a-z 0-9`: names pack and block files by their content. */
  hash(text: string): string;
}

export interface StoredBody {
  /** The response's name in its folder (the last part of `requestToPath`). */
  name: string;
  head: StoredHead;
  body: Uint8Array;
  /** Its tag, when the caller has computed it already. */
  etag?: string;
}

/** A response whose body stays where an earlier version of the folder put it. */
export interface KeptEntry {
  name: string;
  entry: PackedEntry;
}

/** A folder's files as packing lays them out: the manifest, and the new packs and blocks it names. */
export interface PackedFolder {
  manifest: FolderManifest;
  /** Files to write (a kept entry's file is not among them: it is already there; a block may be). */
  files: [name: string, data: Uint8Array][];
  /** Every entry, whether the manifest holds it or one of its blocks. */
  entries: PackedEntries;
}

const utf8 = new TextEncoder();
const decoder = new TextDecoder();

/** Names in a fixed order (UTF-16 code units, as `<` compares), so blocks can be searched. */
function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A pack (or a body alone) is named by the tags of the bodies it holds. */
export function packFileName(hash: string): string {
  return `_p.${hash}`;
}

/** A block is named by its own content: a block an update does not change keeps its file. */
export function blockFileName(hash: string): string {
  return `_m.${hash}.json`;
}

/** True for the files packing writes (packs and blocks), never a response. */
export function isPackingFile(name: string): boolean {
  return /^_p\.[0-9a-z]+$|^_m\.[0-9a-z]+\.json$/.test(name);
}

/** True when an entry's body is its file's whole content (a host may then send the file, or its precompressed sibling). */
export function isAlone(entry: PackedEntry, fileSize: number): boolean {
  return entry.offset === 0 && entry.length === fileSize;
}

/**
 * Lays out a folder's responses: pure, so a build worker or a write can plan and hand over the
 * bytes. `items` are every response the folder holds now: new bodies, and entries kept from
 * its previous manifest. Files are named by what they hold (a pack by its bodies' tags, a block
 * by its text): the same name is the same bytes, so a file already there is never rewritten.
 */
export function packFolder(items: (StoredBody | KeptEntry)[], options: PackOptions): PackedFolder {
  const sorted = [...items].sort(byName);
  const files: [string, Uint8Array][] = [];
  const entries: PackedEntries = {};
  // The pack being filled: its bodies, and the entries that will name its file.
  let parts: Uint8Array[] = [];
  let inPack: PackedEntry[] = [];
  let size = 0;
  const close = (): void => {
    if (!parts.length) return;
    const file = packFileName(options.hash(inPack.map((e) => e.etag).join(" ")));
    for (const e of inPack) e.file = file;
    files.push([file, concatBytes(parts)]);
    parts = [];
    inPack = [];
    size = 0;
  };
  for (const item of sorted) {
    if ("entry" in item) {
      entries[item.name] = item.entry;
      continue;
    }
    const body = item.body;
    const entry: PackedEntry = { ...item.head, etag: item.etag ?? options.etag(body), file: "", offset: 0, length: body.length };
    entries[item.name] = entry;
    if (options.packBytes <= 0 || body.length >= options.aloneBytes || body.length >= options.packBytes) {
      entry.file = packFileName(options.hash(entry.etag));
      files.push([entry.file, body]);
      continue;
    }
    if (parts.length > 0 && size + body.length > options.packBytes) close();
    entry.offset = size;
    inPack.push(entry);
    parts.push(body);
    size += body.length;
  }
  close();
  const names = sorted.map((item) => item.name);
  if (names.length <= options.blockEntries) return { manifest: { v: MANIFEST_VERSION, entries }, files: dedupe(files), entries };
  const blocks: ManifestBlock[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < names.length; i += options.blockEntries) {
    const block: PackedEntries = {};
    for (const name of names.slice(i, i + options.blockEntries)) block[name] = entries[name];
    const text = blockText(block);
    const file = blockFileName(options.hash(text));
    blocks.push({ from: names[i], file });
    files.push([file, encoder.encode(text)]);
  }
  return { manifest: { v: MANIFEST_VERSION, blocks }, files: dedupe(files), entries };
}

/** Files named alike hold the same bytes (two equal bodies alone in their files): one is written. */
function dedupe(files: [string, Uint8Array][]): [string, Uint8Array][] {
  const seen = new Set<string>();
  const out: [string, Uint8Array][] = [];
  for (const file of files) {
    if (seen.has(file[0])) continue;
    seen.add(file[0]);
    out.push(file);
  }
  return out;
}

/** Own keys only (`__proto__`, `constructor` name no response); Object.hasOwn is missing from njs 0.7. */
function hasOwn(entries: PackedEntries, name: string): boolean {
  // biome-ignore lint/suspicious/noPrototypeBuiltins: njs 0.7, one of this module's readers, has no Object.hasOwn
  return Object.prototype.hasOwnProperty.call(entries, name);
}

/** Where a name's entry is: in the manifest itself, in a block file to read, or nowhere. */
export type Location = { entry: PackedEntry } | { block: string } | null;

export function locate(manifest: FolderManifest, name: string): Location {
  if (manifest.entries) {
    const entry = hasOwn(manifest.entries, name) ? manifest.entries[name] : undefined;
    return entry ? { entry } : null;
  }
  const blocks = manifest.blocks ?? [];
  // The last block whose first name is not after `name`.
  let lo = 0;
  let hi = blocks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid].from <= name) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found < 0 ? null : { block: blocks[found].file };
}

/** The entry of `name` in a block `locate` pointed to. */
export function entryIn(block: PackedEntries, name: string): PackedEntry | null {
  return hasOwn(block, name) ? block[name] : null;
}

/** Every file a manifest names (packs and blocks), given all its entries: what an update may remove. */
export function filesOf(manifest: FolderManifest, entries: PackedEntries): Set<string> {
  const out = new Set<string>();
  for (const b of manifest.blocks ?? []) out.add(b.file);
  for (const name in entries) out.add(entries[name].file);
  return out;
}

/** The text of a manifest file: its head line, then its entries' lines (a small folder). */
export function manifestText(manifest: FolderManifest): string {
  const head: Omit<FolderManifest, "entries"> = { v: manifest.v };
  if (manifest.blocks) head.blocks = manifest.blocks;
  return `${JSON.stringify(head)}\n${manifest.entries ? entryLines(manifest.entries) : ""}`;
}

/** The text of a block file: a head line, then its entries' lines. */
export function blockText(entries: PackedEntries): string {
  return `${JSON.stringify({ v: MANIFEST_VERSION })}\n${entryLines(entries)}`;
}

function entryLines(entries: PackedEntries): string {
  let out = "";
  for (const name of Object.keys(entries).sort()) out += `${JSON.stringify([name, entries[name]])}\n`;
  return out;
}

/** The head line of a manifest or block file, read; null when it is not this format (an older tree). */
function headOf(text: string): Partial<FolderManifest> | null {
  const end = text.indexOf("\n");
  try {
    const head = JSON.parse(end < 0 ? text : text.slice(0, end)) as Partial<FolderManifest> | null;
    return head && typeof head === "object" && head.v === MANIFEST_VERSION ? head : null;
  } catch {
    return null;
  }
}

/** Every entry line of a manifest or block file. */
function parseLines(text: string): PackedEntries | null {
  const entries: PackedEntries = {};
  const lines = text.split("\n");
  try {
    for (let i = 1; i < lines.length; i++) {
      if (!lines[i]) continue;
      const pair = JSON.parse(lines[i]) as [string, PackedEntry];
      entries[pair[0]] = pair[1];
    }
  } catch {
    return null;
  }
  return entries;
}

/** Reads a manifest file whole, or null when it is not one this format knows (an older tree). */
export function parseManifest(text: string): FolderManifest | null {
  const head = headOf(text);
  if (!head) return null;
  if (head.blocks) return Array.isArray(head.blocks) ? { v: MANIFEST_VERSION, blocks: head.blocks } : null;
  const entries = parseLines(text);
  return entries && { v: MANIFEST_VERSION, entries };
}

/** Reads a block file whole, or null when it is not one. */
export function parseBlock(text: string): PackedEntries | null {
  return headOf(text) ? parseLines(text) : null;
}

/**
 * The entry of `name` in a manifest or block file's bytes, found by a binary search over its
 * sorted lines and parsed from its line only; null when it holds none. For readers that keep
 * nothing between requests (njs decodes a 200 kB text ten times slower than it reads the bytes).
 */
export function findEntry(bytes: Uint8Array, name: string): PackedEntry | null {
  // Names are `requestToPath`'s (a-z 0-9 . _ -): ASCII that JSON does not escape, whose byte
  // order is the order the lines are sorted in.
  const key = utf8.encode(name);
  let lo = bytes.indexOf(0x0a) + 1;
  if (lo === 0) return null;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    let start = mid;
    while (start > lo && bytes[start - 1] !== 0x0a) start--;
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    const order = compareName(bytes, start, end, key);
    if (order === 0) {
      try {
        const pair = JSON.parse(decoder.decode(bytes.subarray(start, end))) as [string, PackedEntry];
        return pair[0] === name ? pair[1] : null;
      } catch {
        return null;
      }
    }
    if (order < 0) lo = end + 1;
    else hi = start;
  }
  return null;
}

/** The line at `start` (`["name",...`) against `key`: negative when its name sorts first. */
function compareName(bytes: Uint8Array, start: number, end: number, key: Uint8Array): number {
  let i = start + 2;
  for (let k = 0; k < key.length; k++, i++) {
    if (i >= end || bytes[i] === 0x22) return -1;
    if (bytes[i] !== key[k]) return bytes[i] - key[k];
  }
  return i < end && bytes[i] === 0x22 ? 0 : 1;
}

/** The head of a manifest file (its blocks, when it has them), without reading its entries. */
export function manifestHead(bytes: Uint8Array): { blocks?: ManifestBlock[] } | null {
  const end = bytes.indexOf(0x0a);
  const head = headOf(decoder.decode(end < 0 ? bytes : bytes.subarray(0, end)));
  return head ? { blocks: Array.isArray(head.blocks) ? head.blocks : undefined } : null;
}
