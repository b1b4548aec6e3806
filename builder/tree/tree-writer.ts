// Writes responses into the static tree: each folder's responses (named by the one
// request-to-path function) packed with their manifest as packed-folder.ts lays them out, and
// the data files beside them (indexes, the catalogue) as they are.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { readBytesOr } from "../read-files.js";
import type { DtsResponse } from "../render/response.js";
import type { StoredResponse } from "../responses.js";
import type { Site, TreeLayout } from "../site.js";
import type { V1Request } from "../v1/request.js";
import { staticPath } from "../v1/static-paths.js";
import { type FileSink, packOptions, replaceFile, writeFolder } from "./folder-store.js";
import { GENERATION_FILE, requestToPath, splitTreePath } from "./layout.js";
import type { KeptEntry, StoredBody } from "./packed-folder.js";

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
    if (atomic) replaceFile(full, data);
    else writeFileSync(full, data);
  }
}

export interface TreeWriterOptions {
  /**
   * Replace files in a live tree: a folder's new packs and manifest are written beside the old
   * ones (see folder-store.ts), and data files through a temporary sibling renamed over them,
   * so a reader sees the old state or the new one, never a partial one. What does not change
   * (a folder's bodies, a data file's bytes) is left alone.
   */
  atomic?: boolean;
  /** How responses lie in their folders (default: packed). */
  layout?: TreeLayout;
  /**
   * A site of the DTS 1.0 static profile: its 1.0 answers are written as plain files at their
   * URL paths (v1/static-paths.ts), not packed; those a file server cannot serve (errors,
   * names no file may have) are left to `dts serve`, which computes them.
   */
  staticSite?: Site;
  /**
   * Responses come folder by folder (documentResponses yields them so): each folder is written
   * as soon as the next one begins, so a document's answers are not all held at once. A folder
   * whose responses come in two runs is refused (its second write would lose the first's).
   */
  folderByFolder?: boolean;
}

const utf8 = new TextEncoder();

export class TreeWriter {
  private readonly folders = new Map<string, (StoredBody | KeptEntry)[]>();
  private readonly written = new Set<string>();
  /** With folderByFolder: the folder being filled, and those written. */
  private current: string | null = null;
  private readonly done = new Set<string>();
  private readonly sink: FileSink;
  files = 0;
  bytes = 0;

  constructor(
    readonly root: string,
    private readonly options: TreeWriterOptions = {},
  ) {
    this.sink = new DiskSink();
  }

  write(stored: StoredResponse): void {
    const site = this.options.staticSite;
    if (site?.staticPaths && stored.request.kind.startsWith("v1-")) {
      const file = staticPath(site, stored.request as V1Request);
      if (file !== null && stored.response.status === 200) this.writeData(file, stored.response.body);
      return;
    }
    const path = requestToPath(stored.request);
    if (path === null) throw new Error(`request ${JSON.stringify(stored.request)} is not stored`);
    this.writeResponse(path, stored.response);
  }

  /** Adds a response to its folder, written at the next flush. */
  writeResponse(path: string, response: DtsResponse): void {
    const { folder, name } = splitTreePath(path);
    if (this.options.folderByFolder && folder !== this.current) {
      if (this.current !== null) this.writeFolderNow(this.current);
      if (this.done.has(folder)) throw new Error(`${folder}: its responses came in two runs, and a folder is written once`);
      this.current = folder;
    }
    const body = typeof response.body === "string" ? utf8.encode(response.body) : response.body;
    this.folderItems(folder).push({ name, head: { status: response.status, type: response.type, link: response.link }, body });
  }

  /** Keeps a response of the folder's previous version as it is (its body was not rendered again). */
  keep(folder: string, kept: KeptEntry): void {
    this.folderItems(folder).push(kept);
  }

  private folderItems(folder: string): (StoredBody | KeptEntry)[] {
    let items = this.folders.get(folder);
    if (!items) this.folders.set(folder, (items = []));
    return items;
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

  /** Writes the folders of the responses added so far; returns every folder and data path written since the last flush. */
  flush(): Set<string> {
    for (const folder of [...this.folders.keys()]) this.writeFolderNow(folder);
    this.current = null;
    const written = new Set(this.written);
    this.written.clear();
    return written;
  }

  private writeFolderNow(folder: string): void {
    const items = this.folders.get(folder);
    if (!items) return;
    const write = this.options.atomic ? { fresh: false as const } : { fresh: true as const, sink: this.sink };
    const done = writeFolder(this.root, folder, items, packOptions(this.options.layout), write);
    this.files += done.files;
    this.bytes += done.bytes;
    this.written.add(folder);
    this.folders.delete(folder);
    this.done.add(folder);
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
