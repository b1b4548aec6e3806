// A folder of stored responses, packed: bodies concatenated into a few pack files, and a
// manifest saying, for each response (by the name `requestToPath` gives it), its status and
// headers and where its bytes lie. Static hosts count files (Cloudflare Workers Free: 20,000),
// and a corpus has hundreds of thousands of passages; packs make the file count grow with the
// documents, not the passages. A manifest too large to read per request (the Iliad's has some
// 16,000 entries) is split into blocks, found by a binary search over their first names.
//
// Packing is a policy, not a second layout: with `packBytes: 0` every body is a file of its
// own, named as the response (what a plain static server without a reader can send), and the
// manifest says so in the same form. Every reader goes through `locate` and `entryIn`.
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
  v: 2;
  /** Names this folder's files, so a rewrite never overwrites a file a reader may be reading. */
  gen: string;
  entries?: PackedEntries;
  blocks?: ManifestBlock[];
}

export const MANIFEST_VERSION = 2;

export interface PackOptions {
  /** Largest pack file (a body larger than this is alone in its file); 0: one file per body. */
  packBytes: number;
  /** Most entries in a manifest before it is split into blocks of this many. */
  blockEntries: number;
  /** This write's generation, in the names of its pack and block files. */
  gen: string;
  /** The strong tag of a body (one function for stored and computed responses). */
  etag(body: Uint8Array): string;
}

export interface StoredBody {
  /** The response's name in its folder (the last part of `requestToPath`). */
  name: string;
  head: StoredHead;
  body: Uint8Array;
}

/** A folder's files as packing lays them out: the manifest, and the packs and blocks it names. */
export interface PackedFolder {
  manifest: FolderManifest;
  files: [name: string, data: Uint8Array][];
}

/** Names in a fixed order (UTF-16 code units, as `<` compares), so blocks can be searched. */
function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function packFileName(gen: string, n: number): string {
  return `_p.${gen}.${n}`;
}

export function blockFileName(gen: string, n: number): string {
  return `_m.${gen}.${n}.json`;
}

/** True for the files packing writes (packs and blocks of any generation), never a response. */
export function isPackingFile(name: string): boolean {
  return /^_p\.[0-9a-z]+\.\d+$|^_m\.[0-9a-z]+\.\d+\.json$/.test(name);
}

/** Lays out a folder's responses: pure, so a build worker or a write can plan and hand over the bytes. */
export function packFolder(responses: StoredBody[], options: PackOptions): PackedFolder {
  const sorted = [...responses].sort(byName);
  const files: [string, Uint8Array][] = [];
  const entries: PackedEntries = {};
  let parts: Uint8Array[] = [];
  let size = 0;
  const close = (): void => {
    if (!parts.length) return;
    files.push([packFileName(options.gen, files.length), concatBytes(parts)]);
    parts = [];
    size = 0;
  };
  for (const r of sorted) {
    const etag = options.etag(r.body);
    if (options.packBytes <= 0) {
      entries[r.name] = { ...r.head, etag, file: r.name, offset: 0, length: r.body.length };
      files.push([r.name, r.body]);
      continue;
    }
    if (size > 0 && size + r.body.length > options.packBytes) close();
    entries[r.name] = { ...r.head, etag, file: packFileName(options.gen, files.length), offset: size, length: r.body.length };
    parts.push(r.body);
    size += r.body.length;
  }
  close();
  const names = Object.keys(entries);
  if (names.length <= options.blockEntries) return { manifest: { v: MANIFEST_VERSION, gen: options.gen, entries }, files };
  const blocks: ManifestBlock[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < names.length; i += options.blockEntries) {
    const block: PackedEntries = {};
    for (const name of names.slice(i, i + options.blockEntries)) block[name] = entries[name];
    const file = blockFileName(options.gen, blocks.length);
    blocks.push({ from: names[i], file });
    files.push([file, encoder.encode(JSON.stringify(block))]);
  }
  return { manifest: { v: MANIFEST_VERSION, gen: options.gen, blocks }, files };
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

/** Every file a manifest names (packs and blocks): what a rewrite of the folder replaces. */
export function filesOf(manifest: FolderManifest, blocks: PackedEntries[] = []): Set<string> {
  const out = new Set<string>();
  for (const b of manifest.blocks ?? []) out.add(b.file);
  for (const entries of [manifest.entries ?? {}, ...blocks]) for (const e of Object.values(entries)) out.add(e.file);
  return out;
}

/** Reads a manifest's JSON, or null when it is not one this format knows (an older tree). */
export function parseManifest(text: string): FolderManifest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const m = value as Partial<FolderManifest> | null;
  if (!m || m.v !== MANIFEST_VERSION || typeof m.gen !== "string") return null;
  if (!m.entries === !m.blocks) return null;
  return m as FolderManifest;
}
