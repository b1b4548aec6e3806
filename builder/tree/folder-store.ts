// A tree folder of stored responses on the local disk: reading its manifest (all of its
// entries, blocks included) and a body, and replacing its content the way packed-folder.ts
// lays it out (new files, then the manifest, then removing what no entry names any more), so a
// reader of the live tree always finds the bytes its manifest names.

import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { readTextOr } from "../read-files.js";
import type { TreeLayout } from "../site.js";
import { MANIFEST, SIBLING_SUFFIX, treePath } from "./layout.js";
import {
  entryIn,
  type FolderManifest,
  filesOf,
  isPackingFile,
  type KeptEntry,
  manifestText,
  type PackedEntries,
  type PackedEntry,
  type PackOptions,
  packFolder,
  parseBlock,
  parseManifest,
  type StoredBody,
} from "./packed-folder.js";
import { bodyTag, contentHash } from "./tags.js";

/** The packing of each layout: packs up to 512 KiB, bodies from 32 KiB alone (they may get precompressed siblings); 256 entries a block. */
export function packOptions(layout: TreeLayout = "packed"): PackOptions {
  return {
    packBytes: layout === "files" ? 0 : 512 * 1024,
    aloneBytes: 32 * 1024,
    blockEntries: 256,
    etag: bodyTag,
    hash: contentHash,
  };
}

export interface FolderContents {
  manifest: FolderManifest;
  /** Every entry, from the manifest and its blocks. */
  entries: PackedEntries;
}

/**
 * The last folders read, by their manifest's text: a manifest names its blocks by their content,
 * so the same text means the same entries. An editor's writes to one document read its folder
 * once, not on every save (the Iliad's holds 15,000 entries).
 */
const recent = new Map<string, { text: string; contents: FolderContents }>();
const RECENT_FOLDERS = 4;

/** A folder's manifest and all its entries, or null when it has none this format reads. Do not change what it returns. */
export function readFolder(root: string, folder: string): FolderContents | null {
  const key = join(root, folder);
  const text = readTextOr(join(key, MANIFEST), "");
  const known = recent.get(key);
  if (known && known.text === text) return known.contents;
  const manifest = parseManifest(text);
  if (!manifest) return null;
  const entries: PackedEntries = { ...(manifest.entries ?? {}) };
  for (const block of manifest.blocks ?? []) {
    const part = parseBlock(readTextOr(join(root, folder, block.file), ""));
    if (!part) return null;
    Object.assign(entries, part);
  }
  const contents = { manifest, entries };
  remember(key, text, contents);
  return contents;
}

function remember(key: string, text: string, contents: FolderContents): void {
  recent.delete(key);
  recent.set(key, { text, contents });
  if (recent.size > RECENT_FOLDERS) recent.delete(recent.keys().next().value!);
}

/** The entry of one response of a folder, or null. */
export function readEntry(root: string, folder: string, name: string): PackedEntry | null {
  const contents = readFolder(root, folder);
  return contents ? entryIn(contents.entries, name) : null;
}

/** A stored body, read at its entry's place; null when the file is missing or shorter. */
export function readBody(root: string, folder: string, entry: PackedEntry): Buffer | null {
  let fd: number;
  try {
    fd = openSync(join(root, folder, entry.file), "r");
  } catch {
    return null;
  }
  try {
    const out = Buffer.alloc(entry.length);
    let done = 0;
    while (done < entry.length) {
      const n = readSync(fd, out, done, entry.length - done, entry.offset + done);
      if (n === 0) return null;
      done += n;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** Where the files of a fresh folder go (tree-writer.ts: the disk, making each folder once). */
export interface FileSink {
  write(root: string, path: string, data: string | Uint8Array, atomic: boolean): void;
}

export interface FolderWrite {
  /** Files written (packs, blocks, the manifest); 0 when the folder was left as it was. */
  files: number;
  bytes: number;
}

/**
 * Writes a folder's responses. `fresh`: the folder is new (a full build), written through
 * `sink`. Otherwise the folder is replaced in place, keeping every body whose bytes and head
 * did not change where it lies, and leaving the folder alone when nothing changed.
 */
export function writeFolder(
  root: string,
  folder: string,
  items: (StoredBody | KeptEntry)[],
  options: PackOptions,
  write: { fresh: true; sink: FileSink } | { fresh: false },
): FolderWrite {
  if (write.fresh) {
    const packed = packFolder(items, options);
    let bytes = 0;
    for (const [name, data] of packed.files) {
      write.sink.write(root, treePath(folder, name), data, false);
      bytes += data.length;
    }
    const manifest = manifestText(packed.manifest);
    write.sink.write(root, treePath(folder, MANIFEST), manifest, false);
    return { files: packed.files.length + 1, bytes: bytes + Buffer.byteLength(manifest) };
  }
  const previous = readFolder(root, folder);
  const old = previous?.entries ?? {};
  let changed = previous === null || Object.keys(old).length !== items.length;
  const kept = items.map((item): StoredBody | KeptEntry => {
    if ("entry" in item) return item;
    const was = entryIn(old, item.name);
    const same = was && was.status === item.head.status && was.type === item.head.type && was.link === item.head.link;
    // The tag is computed once: compared here, then written by packFolder when the body changed.
    const etag = same && was.length === item.body.length ? options.etag(item.body) : undefined;
    if (was && etag === was.etag) return { name: item.name, entry: was };
    changed = true;
    return { ...item, etag };
  });
  if (!changed) return { files: 0, bytes: 0 };
  const packed = packFolder(compacted(root, folder, kept), options);
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  let written = 0;
  for (const [name, data] of packed.files) {
    // Named by their content: a file already there (a block the update did not change) is this
    // one. Each is written whole under a temporary name first, so a name on disk is always
    // complete (a crash mid-write must not leave a short file that a later update would reuse).
    if (existsSync(join(dir, name))) continue;
    replaceFile(join(dir, name), data);
    bytes += data.length;
    written++;
  }
  const manifest = manifestText(packed.manifest);
  replaceFile(join(dir, MANIFEST), manifest);
  remember(dir, manifest, { manifest: packed.manifest, entries: packed.entries });
  removeUnnamed(dir, filesOf(packed.manifest, packed.entries));
  return { files: written + 1, bytes: bytes + Buffer.byteLength(manifest) };
}

/** Writes `file` through a temporary sibling renamed over it: readers see it whole or not at all. */
export function replaceFile(file: string, data: string | Uint8Array): void {
  const temp = `${file}.tmp-${process.pid}-${threadId}`;
  writeFileSync(temp, data);
  renameSync(temp, file);
}

/**
 * Kept bodies, unless the files they lie in are mostly bodies no longer named (many edits of one
 * document): then every body is read back and packed again, so dead bytes stay bounded.
 */
function compacted(root: string, folder: string, items: (StoredBody | KeptEntry)[]): (StoredBody | KeptEntry)[] {
  const live = new Map<string, number>();
  for (const item of items) if ("entry" in item) live.set(item.entry.file, (live.get(item.entry.file) ?? 0) + item.entry.length);
  let liveBytes = 0;
  let fileBytes = 0;
  for (const [file, bytes] of live) {
    liveBytes += bytes;
    fileBytes += statSync(join(root, folder, file), { throwIfNoEntry: false })?.size ?? 0;
  }
  if (fileBytes <= 2 * liveBytes + 256 * 1024) return items;
  return items.map((item) => {
    if (!("entry" in item)) return item;
    const body = readBody(root, folder, item.entry);
    if (!body) throw new Error(`${treePath(folder, item.entry.file)}: a stored body is missing; rebuild with --full`);
    const { status, type, link } = item.entry;
    return { name: item.name, head: { status, type, link }, body };
  });
}

/** Removes the packs and blocks (and their precompressed siblings) no entry of the new manifest names. */
function removeUnnamed(dir: string, named: Set<string>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const suffixes = Object.values(SIBLING_SUFFIX);
  for (const name of names) {
    const base = suffixes.find((s) => name.endsWith(s)) ? name.slice(0, name.lastIndexOf(".")) : name;
    // Temporaries of a manifest write a crash left behind go too.
    if ((isPackingFile(base) && !named.has(base)) || /\.tmp-\d+-\d+$/.test(name)) rmSync(join(dir, name), { force: true });
  }
}
