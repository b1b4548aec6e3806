// Writes responses into the static tree, each at the path the one request-to-path function
// gives, and a manifest of statuses and headers per folder.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { threadId } from "node:worker_threads";
import type { DtsResponse } from "./render/response.js";
import { GENERATION_FILE, MANIFEST, requestToPath } from "./request.js";
import type { Stored } from "./responses.js";

export interface ManifestEntry {
  status: number;
  type: string;
  link: string;
}

export type Manifest = Record<string, ManifestEntry>;

export interface TreeWriterOptions {
  /**
   * Replace each file by writing a temporary sibling and renaming it, so a reader of a live
   * tree sees the old file or the new one, never a partial one. A file whose bytes do not
   * change is left alone, so its ETag and modification time stay (and nothing is written).
   */
  atomic?: boolean;
}

export class TreeWriter {
  private readonly manifests = new Map<string, Manifest>();
  private readonly made = new Set<string>();
  private readonly written = new Set<string>();
  files = 0;
  bytes = 0;

  constructor(
    readonly root: string,
    private readonly options: TreeWriterOptions = {},
  ) {}

  write(stored: Stored): void {
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
    const folder = dirname(path);
    if (!this.made.has(folder)) {
      mkdirSync(join(this.root, folder), { recursive: true });
      this.made.add(folder);
    }
    const full = join(this.root, path);
    this.written.add(path);
    if (this.options.atomic) {
      if (sameBytes(full, data)) return;
      const temp = `${full}.tmp-${process.pid}-${threadId}`;
      writeFileSync(temp, data);
      renameSync(temp, full);
    } else {
      writeFileSync(full, data);
    }
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
  let current: Buffer;
  try {
    current = readFileSync(file);
  } catch {
    return false;
  }
  return typeof data === "string" ? current.length === Buffer.byteLength(data) && current.toString("utf8") === data : current.equals(data);
}

/** Marks the tree at `root` as changed (see GENERATION_FILE), atomically. */
export function bumpGeneration(root: string): void {
  new TreeWriter(root, { atomic: true }).writeData(GENERATION_FILE, `${Date.now()}-${process.pid}-${threadId}-${Math.random().toString(36).slice(2)}\n`);
}
