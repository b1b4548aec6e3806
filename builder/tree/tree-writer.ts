// Writes responses into the static tree, each at the path the one request-to-path function
// gives, and a manifest of statuses and headers per folder.

import { mkdirSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { threadId } from "node:worker_threads";
import { readBytesOr } from "../read-files.js";
import type { DtsResponse } from "../render/response.js";
import type { StoredResponse } from "../responses.js";
import { GENERATION_FILE, MANIFEST, requestToPath, splitTreePath } from "./layout.js";

export interface ManifestEntry {
  status: number;
  type: string;
  link: string;
}

export type Manifest = Record<string, ManifestEntry>;

/** Where a writer's files go: the disk, or (on a render worker) a list handed to the writing thread. */
export interface FileSink {
  write(root: string, path: string, data: string | Uint8Array, atomic: boolean): void;
}

/** Writes files under `root`, making folders once. */
export class DiskSink implements FileSink {
  private readonly made = new Set<string>();

  write(root: string, path: string, data: string | Uint8Array, atomic: boolean): void {
    const { folder } = splitTreePath(path);
    if (!this.made.has(folder)) {
      mkdirSync(join(root, folder), { recursive: true });
      this.made.add(folder);
    }
    const full = join(root, path);
    // Only a file replaced in place has a tag to keep distinct (see keepIdentityDistinct).
    const before = atomic ? statSync(full, { throwIfNoEntry: false }) : undefined;
    if (atomic) {
      const temp = `${full}.tmp-${process.pid}-${threadId}`;
      writeFileSync(temp, data);
      renameSync(temp, full);
    } else {
      writeFileSync(full, data);
    }
    if (before) keepIdentityDistinct(full, before.mtimeMs, before.size);
  }
}

/**
 * Hosts tag a file by its modification time in seconds and its size (nginx's ETag, see
 * server/etag.ts): a rewrite within the same second to the same size would keep the old tag,
 * and an editor's If-Match would match a passage that changed. Move the time on a second.
 */
function keepIdentityDistinct(file: string, oldMtimeMs: number, oldSize: number): void {
  const now = statSync(file);
  const second = Math.floor(oldMtimeMs / 1000);
  if (now.size === oldSize && Math.floor(now.mtimeMs / 1000) <= second) utimesSync(file, now.atime, second + 1);
}

/** Keeps files in memory, to be written by another thread (see packFiles). */
export class CollectingSink implements FileSink {
  readonly files: [string, string | Uint8Array][] = [];

  write(_root: string, path: string, data: string | Uint8Array): void {
    this.files.push([path, data]);
  }
}

/** One transferable buffer holding collected files, so a worker hands them over without copies. */
export interface PackedFiles {
  paths: string[];
  /** End offset of each file in `data`. */
  ends: number[];
  data: Uint8Array;
}

export function packFiles(files: [string, string | Uint8Array][]): PackedFiles {
  const encoder = new TextEncoder();
  const parts = files.map(([, d]) => (typeof d === "string" ? encoder.encode(d) : d));
  const ends: number[] = [];
  let size = 0;
  for (const p of parts) ends.push((size += p.length));
  const data = new Uint8Array(size);
  parts.forEach((p, i) => {
    data.set(p, i === 0 ? 0 : ends[i - 1]);
  });
  return { paths: files.map(([p]) => p), ends, data };
}

export function writePacked(root: string, packed: PackedFiles, sink: FileSink): void {
  packed.paths.forEach((path, i) => {
    sink.write(root, path, packed.data.subarray(i === 0 ? 0 : packed.ends[i - 1], packed.ends[i]), false);
  });
}

export interface TreeWriterOptions {
  /**
   * Replace each file by writing a temporary sibling and renaming it, so a reader of a live
   * tree sees the old file or the new one, never a partial one. A file whose bytes do not
   * change is left alone, so its ETag and modification time stay (and nothing is written).
   */
  atomic?: boolean;
  /** Where files go (default: the disk under `root`). */
  sink?: FileSink;
}

export class TreeWriter {
  private readonly manifests = new Map<string, Manifest>();
  private readonly written = new Set<string>();
  private readonly sink: FileSink;
  files = 0;
  bytes = 0;

  constructor(
    readonly root: string,
    private readonly options: TreeWriterOptions = {},
  ) {
    this.sink = options.sink ?? new DiskSink();
  }

  write(stored: StoredResponse): void {
    const path = requestToPath(stored.request);
    if (path === null) throw new Error(`request ${JSON.stringify(stored.request)} is not stored`);
    this.writeFile(path, stored.response);
  }

  writeFile(path: string, response: DtsResponse): void {
    this.writeData(path, response.body);
    const folder = dirname(path);
    let manifest = this.manifests.get(folder);
    if (!manifest) this.manifests.set(folder, (manifest = {}));
    manifest[basename(path)] = { status: response.status, type: response.type, link: response.link };
  }

  /** Writes a file that is not a response (an index, the catalogue): no manifest entry. */
  writeData(path: string, data: string | Uint8Array): void {
    this.written.add(path);
    const atomic = Boolean(this.options.atomic);
    if (atomic && sameBytes(join(this.root, path), data)) return;
    this.sink.write(this.root, path, data, atomic);
    this.files++;
    this.bytes += typeof data === "string" ? Buffer.byteLength(data) : data.length;
  }

  /** Writes the manifests of the folders written so far; returns every path written since the last flush. */
  flush(): Set<string> {
    for (const [folder, manifest] of this.manifests) {
      this.writeData(folder === "." ? MANIFEST : `${folder}/${MANIFEST}`, JSON.stringify(manifest));
    }
    this.manifests.clear();
    const written = new Set(this.written);
    this.written.clear();
    return written;
  }
}

function sameBytes(file: string, data: string | Uint8Array): boolean {
  const current = readBytesOr(file);
  if (current === null) return false;
  return typeof data === "string" ? current.length === Buffer.byteLength(data) && current.toString("utf8") === data : current.equals(data);
}

/** Marks the tree at `root` as changed (see GENERATION_FILE), atomically. */
export function bumpGeneration(root: string): void {
  new TreeWriter(root, { atomic: true }).writeData(
    GENERATION_FILE,
    `${Date.now()}-${process.pid}-${threadId}-${Math.random().toString(36).slice(2)}\n`,
  );
}
